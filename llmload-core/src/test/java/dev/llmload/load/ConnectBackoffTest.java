package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A closed loop's slot after a request that could not connect: 50 ms, doubling to 2 s, nothing after one that connected. */
class ConnectBackoffTest {

    private static final PreparedRequest REQUEST =
            new PreparedRequest(new RequestSpec(0, List.of(ChatMessage.user("hi")), 1, 4), new byte[0]);

    private static FinishedRequest ended(Outcome outcome) {
        return new FinishedRequest(REQUEST, "r", false, RequestTimings.neverSent(0, 10), List.of(), null, 0, outcome,
                null, null, true, null, false, null);
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    @Test
    void connectFailuresInARowDoubleThePauseUpToTwoSeconds() {
        FinishedRequest refused = ended(Outcome.Failure.of(FailureClass.CONNECT, "cannot connect to 127.0.0.1:1"));
        long pause = 0;
        long[] pausesMs = new long[8];
        for (int i = 0; i < pausesMs.length; i++) {
            pause = Dispatcher.connectBackoffNanos(refused, pause);
            pausesMs[i] = ms(pause);
        }
        assertThat(pausesMs).containsExactly(50, 100, 200, 400, 800, 1600, 2000, 2000);
    }

    @Test
    void aRequestThatReachedTheServerResetsIt() {
        long twoSecondsNanos = TimeUnit.SECONDS.toNanos(2);
        assertThat(Dispatcher.connectBackoffNanos(ended(Outcome.SUCCESS), twoSecondsNanos)).isZero();
        assertThat(Dispatcher.connectBackoffNanos(ended(Outcome.Failure.of(FailureClass.HTTP_5XX, "busy")), twoSecondsNanos))
                .isZero();
        assertThat(Dispatcher.connectBackoffNanos(ended(Outcome.Failure.of(FailureClass.CONNECT, "refused")), 0))
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }
}
