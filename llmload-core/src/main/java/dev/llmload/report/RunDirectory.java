package dev.llmload.report;

import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A finished run read back from its directory: {@code report.json} and, when present, the journal.
 *
 * @param label   how tables and pages name the run: the directory's name, prefixed with the
 *                sweep's for a sweep point
 * @param records the journal's records; empty when the directory has no {@code requests.jsonl}
 */
public record RunDirectory(String label, Path path, RunReport report, List<RequestRecord> records) {

    /**
     * Reads {@code report.json} of a run directory.
     *
     * @throws IOException with the file's name when it is missing or not a report
     */
    public static RunReport readReport(Path runDirectory) throws IOException {
        Path file = runDirectory.resolve(ReportFiles.REPORT_JSON);
        if (!Files.isRegularFile(file)) {
            throw new IOException(runDirectory + " is not a run directory (no " + ReportFiles.REPORT_JSON + ")");
        }
        return ReportFiles.readReport(file);
    }

    /**
     * The runs of a run directory (one), of a repeats directory (its runs) or of a sweep directory
     * (each point's run, or runs, in the sweep's load order): {@link RunGroup#load}'s runs, one list.
     *
     * @throws IOException with a one-line reason when {@code path} is none of these or cannot be read
     */
    public static List<RunDirectory> load(Path path) throws IOException {
        return RunGroup.load(path).stream()
                .flatMap(group -> group.runs().stream())
                .toList();
    }

    static RunDirectory loadRun(Path dir, String label) throws IOException {
        RunReport report = readReport(dir);
        Path journal = dir.resolve(Journal.FILE_NAME);
        List<RequestRecord> records = Files.isRegularFile(journal) ? JournalReader.read(journal) : List.of();
        return new RunDirectory(label, dir, report, records);
    }
}
