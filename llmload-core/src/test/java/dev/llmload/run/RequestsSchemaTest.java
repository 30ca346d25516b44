package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.Journal;
import dev.llmload.report.ReportFiles;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/requests.schema.json} describes every line a real run writes to requests.jsonl:
 * successes, warm-up, failures of several classes, and the turns of multi-turn sessions.
 */
@Tag("loopback")
class RequestsSchemaTest {

    /** Surefire runs in the module's directory; the docs are beside it. */
    private static final Path SCHEMA = Path.of("..", "docs", "requests.schema.json");

    @TempDir
    Path dir;

    @Test
    void everyLineOfRealJournalsIsValid() throws Exception {
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMA), InputFormat.JSON);
        List<String> lines = new ArrayList<>();
        try (SimServer sim = FixedSimulator.start(
                5, 1, Map.of("faults", List.of("http-429@0.1", "stream-error-after:2@0.1", "http-500@0.1")))) {
            RunConfig faulty = RunConfig.builder()
                    .url(sim.url())
                    .load(Load.closed(3))
                    .numRequests(40L)
                    .warmup("4")
                    .inputTokens("32")
                    .outputTokens("6")
                    .tokenizer("cl100k_base")
                    .seed(9)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir.resolve("faulty"))
                    .ioThreads(1)
                    .build();
            lines.addAll(
                    Files.readAllLines(SimulatorRuns.run(faulty).directory().resolve(Journal.FILE_NAME)));
            RunConfig sessions = RunConfig.builder()
                    .url(sim.url())
                    .load(Load.closed(2))
                    .numRequests(8L)
                    .sessions("3")
                    .inputTokens("16")
                    .outputTokens("4")
                    .tokenizer("cl100k_base")
                    .seed(9)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir.resolve("sessions"))
                    .ioThreads(1)
                    .build();
            lines.addAll(
                    Files.readAllLines(SimulatorRuns.run(sessions).directory().resolve(Journal.FILE_NAME)));
        }
        assertThat(lines)
                .anyMatch(l -> l.contains("\"warmup\":true"))
                .anyMatch(l -> l.contains("\"rate_limited\""))
                .anyMatch(l -> l.contains("\"stream_error\""))
                .anyMatch(l -> l.contains("\"session_id\""));
        for (String line : lines) {
            assertThat(schema.validate(line, InputFormat.JSON)).as(line).isEmpty();
        }

        // A line with a field the schema does not know, or a bad outcome, is not valid.
        ObjectNode extra = (ObjectNode) ReportFiles.JSON.readTree(lines.getFirst());
        extra.put("surprise", 1);
        ObjectNode badOutcome = (ObjectNode) ReportFiles.JSON.readTree(lines.getFirst());
        badOutcome.put("outcome", "ok");
        assertThat(schema.validate(extra.toString(), InputFormat.JSON))
                .extracting(Error::getMessage)
                .anyMatch(m -> m.contains("surprise"));
        assertThat(schema.validate(badOutcome.toString(), InputFormat.JSON)).isNotEmpty();
    }
}
