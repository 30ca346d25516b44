package dev.llmload.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.NoteDetector;
import dev.llmload.analysis.Records;
import dev.llmload.config.Load;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.ServerTimings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server's view beside the client's, on hand-made records whose numbers are worked out here:
 * which requests count, the p50 difference, and when the {@code server_client_disagree} note is due.
 */
class ServerViewTest {

    /** Request i is sent at 1000·i ms; its first token comes {@code ttftMs} later and a second 20 ms after that. */
    private static RequestRecord request(int i, double ttftMs, ServerTimings server) {
        double sent = 1000.0 * i;
        RequestRecord r = Records.ok(i, sent, sent, sent + ttftMs, sent + ttftMs + 20);
        return server == null ? r : Records.withServerTimings(r, server);
    }

    private static ServerTimings prefill(double loadMs, double prefillMs) {
        return new ServerTimings(loadMs, prefillMs, 20, Double.NaN, -1);
    }

    @Test
    void noServerTimingsNoView() {
        assertThat(ServerView.of(List.of(request(0, 100, null), request(1, 120, null))))
                .isNull();
        assertThat(RunResults.compute(List.of(request(0, 100, null))).serverView())
                .isNull();
    }

    @Test
    void theViewSetsServerFirstTokenBesideClientTtftOfTheSameRequests() {
        List<RequestRecord> records = List.of(
                request(0, 100, prefill(5, 80)), // server first token 85
                request(1, 110, prefill(0, 90)), // 90
                request(2, 130, prefill(Double.NaN, 100)), // 100: no load reported counts as none
                request(3, 500, null)); // no server timings: not in the view
        ServerView view = ServerView.of(records);

        assertThat(view.requests()).isEqualTo(3);
        assertThat(view.serverFirstTokenMs().p50()).isEqualTo(90.0);
        assertThat(view.clientTtftMs().p50()).isEqualTo(110.0);
        assertThat(view.ttftMinusServerFirstTokenMsP50()).isEqualTo(20.0);
        assertThat(view.serverDecodeMs().p50()).isEqualTo(20.0);
        assertThat(view.e2eMinusServerTotalMsP50()).isNull();
        // 20 ms apart is within max(50 ms, 55 ms): they agree.
        assertThat(view.disagreement()).isNull();
    }

    @Test
    void aGapBeyondTheThresholdIsANoteThatSaysWhatItMeans() {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(request(i, 400, prefill(0, 100)));
        }
        ServerView view = ServerView.of(records);
        // 300 ms apart, beyond max(50 ms, 50% of 400 ms = 200 ms).
        assertThat(view.disagreement())
                .isEqualTo("client TTFT p50 400.0 ms vs server prefill (load + prompt evaluation)"
                        + " p50 100.0 ms over 5 requests: 300.0 ms apart, more than max(50 ms, 50% of the client's); the gap is"
                        + " network, queueing ahead of the engine and framing");

        RunResults results = RunResults.compute(records);
        assertThat(NoteDetector.detect(records, results, Load.closed(1)))
                .anyMatch(n -> n.kind().equals(NoteDetector.SERVER_CLIENT_DISAGREE));
    }

    @Test
    void aServerThatClaimsMoreTimeThanTheClientMeasuredIsFlaggedToo() {
        ServerView view =
                ServerView.of(List.of(request(0, 100, new ServerTimings(Double.NaN, Double.NaN, Double.NaN, 400, -1))));
        // No prefill: the whole request is compared; client E2E is 120 ms, the server claims 400 ms.
        assertThat(view.e2eMinusServerTotalMsP50()).isEqualTo(-280.0);
        assertThat(view.disagreement())
                .contains("client E2E latency p50 120.0 ms vs server total time p50 400.0 ms")
                .endsWith("its timings do not mean what they seem");
    }
}
