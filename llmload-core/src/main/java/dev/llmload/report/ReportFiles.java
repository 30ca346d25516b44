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
 * Writes a run directory's report files. Each file is written to a temporary name and renamed, so
 * a reader never sees half a report.
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

    public static void writeReport(Path dir, RunReport report) throws IOException {
        writeAtomically(dir.resolve(REPORT_JSON), JSON.writeValueAsString(report) + "\n");
        writeAtomically(dir.resolve(SUMMARY_CSV), SummaryCsv.header() + "\n" + SummaryCsv.row(report) + "\n");
    }

    public static void writeAtomically(Path file, String content) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary, content, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
