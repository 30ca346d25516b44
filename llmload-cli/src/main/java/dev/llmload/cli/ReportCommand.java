package dev.llmload.cli;

import dev.llmload.cli.console.ConsoleSummary;
import dev.llmload.report.write.RunRebuild;
import dev.llmload.run.RunException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code llmload report DIR}: rebuild a run directory's reports from its journal. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Rebuild report.json, summary.csv, timeseries.csv and report.html of a run directory from its journal",
            "(requests.jsonl) and the recorded run: after a run that was killed, or to regenerate a finished run's files.",
            "A killed run is reported as interrupted, with every request that finished."
        })
public final class ReportCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "A run directory written by llmload run.")
    Path directory;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(directory)) {
            throw new UsageException("not a directory: " + directory);
        }
        RunRebuild.Rebuilt rebuilt;
        try {
            rebuilt = RunRebuild.rebuild(directory);
        } catch (IOException e) {
            throw new RunException(e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            throw HeapExhausted.of("rebuilding the reports of " + directory, e);
        }
        var out = spec.commandLine().getOut();
        out.print(ConsoleSummary.render(rebuilt.report()));
        out.println((rebuilt.fromFinishedRun()
                        ? "Rebuilt the reports of "
                        : "Rebuilt the reports of the interrupted run in ")
                + directory + " from " + rebuilt.requests() + " journaled requests.");
        out.flush();
        return 0;
    }
}
