package dev.llmload.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.record.Journal;
import dev.llmload.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
     * The runs of a run directory (one) or of a sweep directory (each point listed in its
     * {@code sweep.json}, in the sweep's load order).
     *
     * @throws IOException with a one-line reason when {@code path} is neither or cannot be read
     */
    public static List<RunDirectory> load(Path path) throws IOException {
        Path sweepFile = path.resolve(ReportFiles.SWEEP_JSON);
        if (Files.isRegularFile(sweepFile)) {
            JsonNode sweep = ReportFiles.JSON.readTree(sweepFile.toFile());
            List<RunDirectory> runs = new ArrayList<>();
            for (JsonNode point : sweep.path("points")) {
                Path dir = path.resolve(point.path("directory").asText());
                runs.add(loadRun(dir, path.getFileName() + "/" + dir.getFileName()));
            }
            if (runs.isEmpty()) {
                throw new IOException(sweepFile + " lists no finished point");
            }
            return runs;
        }
        if (!Files.isDirectory(path)) {
            throw new IOException("no such directory: " + path);
        }
        return List.of(loadRun(path, String.valueOf(path.toAbsolutePath().normalize().getFileName())));
    }

    private static RunDirectory loadRun(Path dir, String label) throws IOException {
        RunReport report = readReport(dir);
        Path journal = dir.resolve(Journal.FILE_NAME);
        List<RequestRecord> records = Files.isRegularFile(journal) ? Journal.read(journal) : List.of();
        return new RunDirectory(label, dir, report, records);
    }
}
