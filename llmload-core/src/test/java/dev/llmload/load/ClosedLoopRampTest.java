package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A closed loop whose target grows over time, against the simulator: the number in flight climbs
 * with the ramp (raised by the dispatcher thread between completions and by each completion), and
 * no request goes out while the plan's target at that moment is already met.
 */
@Tag("loopback")
@Tag("timing")
class ClosedLoopRampTest {

    private static final int REQUESTS = 80;

    @Test
    void theLoopFollowsARampWithoutEverExceedingIt() throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "llmload-sim", true, true, null));
        ConcurrencyPlan.Ramp ramp = new ConcurrencyPlan.Ramp(1, 4, Duration.ofMillis(300));
        List<FinishedRequest> finished = Collections.synchronizedList(new ArrayList<>());
        long runStart;
        try (SimServer sim = FixedSimulator.start(30.0, 2.0, Map.of());
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(sim.url()), null, 2, Duration.ofSeconds(5), false);
                PreparedFeed feed = new PreparedFeed(new HelloSource(0), dialect, REQUESTS)) {
            feed.start();
            feed.awaitReady(Duration.ofSeconds(10));
            runStart = System.nanoTime();
            new Dispatcher(
                            new SendContext(
                                    client,
                                    dialect,
                                    Timeouts.defaults(),
                                    new LoadPlan.ClosedLoop(ramp),
                                    REQUESTS,
                                    null,
                                    0,
                                    null,
                                    finished::add,
                                    runStart,
                                    "ramp-",
                                    null),
                            feed)
                    .run(Duration.ofSeconds(10));
        }

        assertThat(finished).hasSize(REQUESTS).allMatch(f -> f.outcome() instanceof Outcome.Success);
        List<RequestTimings> timings =
                finished.stream().map(FinishedRequest::timings).toList();
        int most = 0;
        for (RequestTimings request : timings) {
            long sent = request.sentNanos();
            long inFlight = timings.stream()
                    .filter(other -> other.sentNanos() <= sent && sent < other.endNanos())
                    .count();
            assertThat(inFlight)
                    .as("in flight when a request went out %.1f ms into the run", (sent - runStart) / 1e6)
                    .isLessThanOrEqualTo(ramp.concurrencyAt(sent - runStart));
            most = Math.max(most, (int) inFlight);
        }
        assertThat(most).as("the most requests in flight at once").isEqualTo(4);
        // Last, so that on a machine too busy to judge it the checks above have still been made.
        double firstWithinMs = HostLoad.slackMs(250);
        assertThat((timings.getFirst().sentNanos() - runStart) / 1e6)
                .as("the first request waited for nothing, %s", HostLoad.describe())
                .isLessThan(firstWithinMs);
    }
}
