package dev.llmload.cli;

import dev.llmload.cli.console.ConsoleSummary;
import dev.llmload.report.merge.SegmentMerge;
import dev.llmload.run.RunException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code llmload merge OUT DIR...}: one run directory from the segments of a run spread over hosts. */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Merge the directories of a run's segments (llmload run --segment I/N) into one run directory: report.json,",
            "summary.csv, timeseries.csv, report.html and requests.jsonl of the whole run, every statistic computed from",
            "the union of the segments' journals. Refuses segments of different runs, a segment given twice, a missing",
            "one, or a journal changed since its run sealed it (requests.jsonl.sha256). See docs/distributed.md."
        })
public final class MergeCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "OUT", description = "The merged run directory to write (new or empty).")
    Path out;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "DIR", description = "The segments' run directories.")
    List<Path> directories;

    @Option(
            names = "--allow-partial",
            description = "Merge the segments given even when some are missing; a note names the missing ones.")
    boolean allowPartial;

    @Override
    public Integer call() throws Exception {
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                throw new UsageException("not a directory: " + dir);
            }
        }
        if (Files.isDirectory(out)) {
            try (var entries = Files.list(out)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException(out + " is not empty: merge into a new directory");
                }
            }
        } else if (Files.exists(out)) {
            throw new UsageException(out + " is a file, not a directory");
        }
        SegmentMerge.Merged merged;
        try {
            merged = SegmentMerge.merge(out, directories, allowPartial);
        } catch (IOException e) {
            throw new RunException(e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            throw HeapExhausted.of("merging " + directories.size() + " segments into " + out, e);
        }
        var console = spec.commandLine().getOut();
        console.print(ConsoleSummary.render(merged.report()));
        console.println("Merged " + directories.size() + " segment" + (directories.size() == 1 ? "" : "s") + " ("
                + merged.records() + " requests) into " + out + ".");
        console.flush();
        return 0;
    }
}
