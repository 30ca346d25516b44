package dev.llmload.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.analysis.ScheduleFidelity;
import org.junit.jupiter.api.Test;

/**
 * One name per rate: the schedule's rate of sends is {@code sent_rate}, so that "achieved" names
 * only the saturation's rate of requests that ended, the console's and the page's "Achieved
 * request rate" (an open loop at 500 req/s once showed 478.38 there beside a {@code schedule.achieved_rate}
 * of 491.72). A report written under the old name is still read.
 */
class RateNamesTest {

    @Test
    void theScheduleWritesItsRateOfSendsAsSentRate() throws Exception {
        ScheduleFidelity schedule = new ScheduleFidelity("requests", 500.0, 499.1, 491.72, 1000, 0, null);
        JsonNode written = ReportFiles.JSON.readTree(ReportFiles.JSON.writeValueAsString(schedule));
        assertThat(written.get("sent_rate").asDouble()).isEqualTo(491.72);
        assertThat(written.has("achieved_rate")).isFalse();
    }

    @Test
    void aReportWrittenUnderTheOldNameIsStillRead() throws Exception {
        ScheduleFidelity read = ReportFiles.JSON.readValue(
                "{\"arrivals\":\"requests\",\"target_rate\":500,"
                        + "\"scheduled_rate\":499.1,\"achieved_rate\":491.72,\"sent\":1000,\"waited_at_gate\":0,\"lag_ms\":null}",
                ScheduleFidelity.class);
        assertThat(read.sentRate()).isEqualTo(491.72);
    }
}
