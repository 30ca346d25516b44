package dev.llmload.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.llmload.record.FailureClass;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress line's text, computed by hand for each bound. */
class ProgressLineTest {

    @Test
    void requestBoundedRunGetsAnEtaFromTheRateSoFarAndErrorsByClass() {
        Map<FailureClass, Long> failed = new EnumMap<>(FailureClass.class);
        failed.put(FailureClass.TIMEOUT, 2L);
        failed.put(FailureClass.HTTP_5XX, 1L);
        // 40 done in 10 s: 4 req/s; 60 left: 15 s. Classes in the enum's order.
        assertEquals(
                "progress: 40/100 done, 16 in flight, 3 failed (http_5xx 1, timeout 2), 10.0 s, 4.00 req/s, last TTFT 12.5 ms,"
                        + " ETA 15 s",
                Progress.line(10.0, 40, 16, 100L, null, failed, 12.5));
    }

    @Test
    void timeBoundedRunEndsWhenItsTimeIsUpAndTheSoonerBoundWins() {
        assertEquals(
                "progress: 5 done, 1 in flight, 0 failed, 20.0 s, 0.25 req/s, last TTFT n/a, ETA 40 s",
                Progress.line(20.0, 5, 1, null, 60.0, Map.of(), Double.NaN));
        // 1000 requests at 0.25 req/s would take 3980 s more; the 60 s bound ends it in 40.
        assertEquals(
                "progress: 5/1000 done, 1 in flight, 0 failed, 20.0 s, 0.25 req/s, last TTFT n/a, ETA 40 s",
                Progress.line(20.0, 5, 1, 1000L, 60.0, Map.of(), Double.NaN));
    }

    @Test
    void unboundedRunOrNothingFinishedYetHasNoEta() {
        assertEquals(
                "progress: 7 done, 2 in flight, 0 failed, 2.0 s, 3.50 req/s, last TTFT 1.0 ms",
                Progress.line(2.0, 7, 2, null, null, Map.of(), 1.0));
        assertEquals(
                "progress: 0/10 done, 0 in flight, 0 failed, 1.0 s, 0.00 req/s, last TTFT n/a",
                Progress.line(1.0, 0, 0, 10L, null, Map.of(), Double.NaN));
    }
}
