package dev.llmload.report.write;

import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RecordSource;
import dev.llmload.report.Measurements;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Rebuilds a run directory's reports from its journal and its recorded run: after a crash or
 * {@code kill -9} (from {@code run.json}, the record written before the first request), or to
 * regenerate the files of a finished run (from {@code report.json}, whose rebuild equals it).
 */
public final class RunRebuild {

    private RunRebuild() {}

    /** What a rebuild produced, and from how many journaled requests. */
    public record Rebuilt(RunReport report, long requests, boolean fromFinishedRun) {}

    /**
     * Rewrites report.json, summary.csv, timeseries.csv and report.html of {@code dir}.
     *
     * @throws IOException with a one-line message when {@code dir} is not a run directory or its
     *                     journal is damaged beyond a cut-off last line
     */
    public static Rebuilt rebuild(Path dir) throws IOException {
        Path finished = dir.resolve(ReportFiles.REPORT_JSON);
        Path started = dir.resolve(ReportFiles.RUN_START_JSON);
        boolean fromFinishedRun = Files.exists(finished);
        if (!fromFinishedRun && !Files.exists(started)) {
            throw new IOException(dir + " is not a run directory: it has neither " + ReportFiles.REPORT_JSON + " nor "
                    + ReportFiles.RUN_START_JSON);
        }
        RunReport base = ReportFiles.readReport(fromFinishedRun ? finished : started);
        Path journal = dir.resolve(Journal.FILE_NAME);
        // The journal is read a line at a time and no record held: without the token gaps, then
        // with them (Measurements.derive). Each pass counts the requests afresh.
        long[] requests = {0};
        RecordSource compact = consumer -> {};
        RecordSource full = consumer -> {};
        if (Files.exists(journal)) {
            compact = consumer -> {
                requests[0] = 0;
                JournalReader.forEachWithoutTokenGaps(journal, record -> {
                    requests[0]++;
                    consumer.accept(record);
                });
            };
            full = JournalReader.source(List.of(journal));
        }
        Measurements measurements = Measurements.derive(compact, full, base.config());
        // A run that never wrote its report ended when its last request was journaled.
        String endedAt = fromFinishedRun
                ? base.run().endedAt()
                : Files.exists(journal)
                        ? Files.getLastModifiedTime(journal).toInstant().toString()
                        : null;
        boolean interrupted = !fromFinishedRun || base.run().interrupted();
        RunReport report = base.withMeasurements(measurements, endedAt, interrupted);
        RunFiles.write(dir, report, measurements.page(), full);
        return new Rebuilt(report, requests[0], fromFinishedRun);
    }
}
