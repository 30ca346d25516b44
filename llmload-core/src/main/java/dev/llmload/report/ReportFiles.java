package dev.llmload.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The names of a run directory's report files, the one JSON mapper, reading {@code report.json} back
 * and the atomic write every report file goes through (temporary name, then rename), so a reader
 * never sees half a report. Writing a whole run directory is {@code report.write.RunFiles}.
 */
public final class ReportFiles {

    public static final String REPORT_JSON = "report.json";
    public static final String SUMMARY_CSV = "summary.csv";

    /** The mapper for every JSON file llmload writes: snake_case keys, nulls kept, indented. */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .findAndAddModules()
            .build();

    private ReportFiles() {}

    /** The run's record as known before the first request; {@code llmload report} rebuilds from it after a crash. */
    public static final String RUN_START_JSON = "run.json";
    /** A sweep directory's index of its points ({@code sweep.SweepReport}); its runs are directories beside it. */
    public static final String SWEEP_JSON = "sweep.json";

    /**
     * Reads a report.json (or run.json) back. Derived values written beside the record's own
     * (such as a summary's {@code low_confidence}) are recomputed, not read.
     *
     * @throws IOException with a one-line message naming the file
     */
    public static RunReport readReport(Path file) throws IOException {
        try {
            return JSON.readerFor(RunReport.class)
                    .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(file.toFile());
        } catch (IOException | IllegalArgumentException e) { // the recorded config is checked as it is read
            String message = e.getMessage() == null
                    ? e.getClass().getSimpleName()
                    : e.getMessage().lines().findFirst().orElse("");
            throw new IOException(file + " is not an llmload report: " + message, e);
        }
    }

    public static void writeRunStart(Path dir, RunReport skeleton) throws IOException {
        writeAtomically(dir.resolve(RUN_START_JSON), JSON.writeValueAsString(skeleton) + "\n");
    }

    public static void writeAtomically(Path file, String content) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        // getBytes replaces what UTF-8 cannot encode, where writeString would throw: no content can
        // cost a run its report.
        try {
            Files.write(temporary, content.getBytes(StandardCharsets.UTF_8));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // A write cut short (a full disk) leaves no half file behind: the file is whole or absent.
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }
}
