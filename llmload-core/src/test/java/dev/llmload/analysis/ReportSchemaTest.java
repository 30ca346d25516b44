package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.llmload.config.Load;
import dev.llmload.metrics.Slo;
import dev.llmload.record.FailureClass;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.TimeoutKind;
import dev.llmload.report.ReportFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code docs/report.schema.json} describes report.json exactly as {@link ReportFiles#JSON} writes it. */
class ReportSchemaTest {

    /** Surefire runs in the module's directory; the docs are beside it. */
    private static final Path SCHEMA = Path.of("..", "docs", "report.schema.json");

    private static final List<RequestRecord> RECORDS = List.of(
            Records.ok(0, 0, 0, 100, 300, 600),
            Records.ok(1, 10, 40, 200, 250),
            Records.timeout(2, 20, TimeoutKind.FIRST_TOKEN),
            Records.failed(3, 30, FailureClass.RATE_LIMITED, 429, "Too Many Requests"));

    private static Schema schema() throws IOException {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMA), InputFormat.JSON);
    }

    private static List<Error> validate(String json) throws IOException {
        return schema().validate(json, InputFormat.JSON);
    }

    @Test
    void aSerialisedReportIsValid() throws IOException {
        String withSlo = ReportFiles.JSON.writeValueAsString(
                Reports.of(RECORDS, Load.open(4, Load.Arrival.GAMMA, 1.0, 2), Slo.parse("ttft:150,e2e:1000")));
        String closedWithoutSlo = ReportFiles.JSON.writeValueAsString(Reports.of(RECORDS, Load.closed(2), null));
        String nothingMeasured = ReportFiles.JSON.writeValueAsString(Reports.of(List.of(), Load.closed(2), null));

        assertThat(validate(withSlo)).isEmpty();
        assertThat(validate(closedWithoutSlo)).isEmpty();
        assertThat(validate(nothingMeasured)).isEmpty();
    }

    @Test
    void aSessionRunsReportIsValid() throws IOException {
        List<RequestRecord> turns = List.of(
                Records.inSession(Records.ok(0, 0, 0, 100, 300, 600), 0, 1),
                Records.inSession(Records.ok(1, 650, 650, 700, 720), 0, 2),
                Records.inSession(Records.failed(2, 30, FailureClass.HTTP_5XX, 500, "boom"), 1, 1));
        String json = ReportFiles.JSON.writeValueAsString(Reports.of(turns, Load.closed(2), null));

        assertThat(json).contains("\"by_context\"", "\"intended_prefix_share\"", "\"waiting_ms_mean\"");
        assertThat(validate(json)).isEmpty();
    }

    @Test
    void aReportMissingAKeyOrWithABadValueIsInvalid() throws IOException {
        ObjectNode report = ReportFiles.JSON.valueToTree(Reports.of(RECORDS, Load.closed(2), null));
        ObjectNode missingNotes = report.deepCopy();
        missingNotes.remove("notes");
        ObjectNode missingP99 = report.deepCopy();
        ((ObjectNode) missingP99.get("results").get("ttft_ms")).remove("p99");
        ObjectNode wrongVersion = report.deepCopy();
        wrongVersion.put("schema_version", 2);
        ObjectNode badNote = report.deepCopy();
        badNote.putArray("notes").addObject().put("kind", "Rate Limited");

        assertThat(validate(missingNotes.toString()))
                .extracting(Error::getMessage)
                .anyMatch(m -> m.contains("notes"));
        assertThat(validate(missingP99.toString()))
                .extracting(Error::getMessage)
                .anyMatch(m -> m.contains("p99"));
        assertThat(validate(wrongVersion.toString())).isNotEmpty();
        assertThat(validate(badNote.toString())).hasSizeGreaterThanOrEqualTo(2);
    }
}
