package dev.llmload.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.llmload.config.Load;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.ServerTimings;
import dev.llmload.report.ReportFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A report of requests whose server gave its own timings carries them in results.server_view, as the schema says. */
class ServerViewReportTest {

    @Test
    void theServerViewIsInReportJsonAndValid() throws Exception {
        List<RequestRecord> records = List.of(
                Records.withServerTimings(Records.ok(0, 0, 0, 100, 120), new ServerTimings(0, 90, 20, 115, 0)),
                Records.withServerTimings(Records.ok(1, 10, 10, 120, 140), new ServerTimings(0, 100, 20, 125, 0)));
        var report = Reports.of(records, Load.closed(2), null);
        String json = ReportFiles.JSON.writeValueAsString(report);

        JsonNode view = ReportFiles.JSON.readTree(json).at("/results/server_view");
        assertThat(view.get("requests").asInt()).isEqualTo(2);
        assertThat(view.at("/server_first_token_ms/p50").asDouble()).isEqualTo(95.0);
        assertThat(view.at("/client_ttft_ms/p50").asDouble()).isEqualTo(105.0);
        assertThat(view.get("ttft_minus_server_first_token_ms_p50").asDouble()).isEqualTo(10.0);
        assertThat(ReportFiles.JSON
                        .readTree(json)
                        .at("/results/input_token_throughput")
                        .isNumber())
                .isTrue();
        assertThat(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                        .getSchema(Files.readString(Path.of("..", "docs", "report.schema.json")), InputFormat.JSON)
                        .validate(json, InputFormat.JSON))
                .isEmpty();
    }
}
