package dev.llmload;

import dev.llmload.metrics.RunResults;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.RunReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@link LlmLoad#run} returns: the run's report, as {@code report.json} would hold it, and the
 * record of every request, warm-up included.
 *
 * @param directory the run directory, when the configuration asked for one
 *                  ({@code RunConfig.Builder.outputDir}); empty when nothing was kept on disk
 * @param report    the run's full record; {@link #results()} is its {@code results} section
 * @param records   every request in the order it finished
 */
public record RunResult(Optional<Path> directory, RunReport report, List<RequestRecord> records) {

    public RunResult {
        records = List.copyOf(records);
    }

    /** The measurements a test asserts on: counts, rates, throughputs and a summary per latency. */
    public RunResults results() {
        return report.results();
    }
}
