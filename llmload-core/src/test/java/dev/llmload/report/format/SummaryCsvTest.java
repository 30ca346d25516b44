package dev.llmload.report.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.record.RequestRecord;
import dev.llmload.report.ReportFixtures;
import dev.llmload.report.RunReport;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** summary.csv: one header, one row whose cells are the report's own values, absent ones empty. */
class SummaryCsvTest {

    private static Map<String, String> row(RunReport report) {
        List<String> names = Arrays.asList(SummaryCsv.header().split(","));
        String[] cells = SummaryCsv.row(report).split(",", -1);
        assertThat(cells).hasSameSizeAs(names.toArray());
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < cells.length; i++) {
            row.put(names.get(i), cells[i]);
        }
        return row;
    }

    @Test
    void carriesTheReproductionFactsRatesTailsAndEmptyCellsForWhatWasNotMeasured() {
        List<RequestRecord> records = ReportFixtures.records(400, 8, 5);
        RunReport report = ReportFixtures.report("llama", 8, records);
        Map<String, String> row = row(report);

        assertThat(row.get("tool_version")).isEqualTo(report.tool().version());
        assertThat(row.get("seed")).isEqualTo(String.valueOf(report.run().seed()));
        assertThat(row.get("timeout_rate"))
                .isEqualTo(String.valueOf(report.results().timeoutRate()));
        assertThat(row.get("ttft_ms_p99_9"))
                .isEqualTo(String.valueOf(report.results().ttftMs().p99_9()));
        assertThat(row.get("ttft_from_intended_ms_p50"))
                .isEqualTo(String.valueOf(report.results().ttftFromIntendedMs().p50()));
        assertThat(row.get("e2e_from_intended_ms_p99"))
                .isEqualTo(String.valueOf(report.results().e2eFromIntendedMs().p99()));
        assertThat(report.results().ttstMs().count()).isPositive();
        assertThat(row.get("ttst_ms_p50"))
                .isEqualTo(String.valueOf(report.results().ttstMs().p50()));
        assertThat(row.get("output_token_throughput_per_user_mean"))
                .isEqualTo(String.valueOf(
                        report.results().outputTokenThroughputPerUser().mean()));
        // No SLO, no telemetry, no price: empty cells, never 0.
        assertThat(row.get("request_goodput")).isEmpty();
        assertThat(row.get("kv_cache_usage_mean")).isEmpty();
        assertThat(row.get("gpu_utilization_mean")).isEmpty();
        assertThat(row.get("cost_per_million_output_tokens")).isEmpty();
    }
}
