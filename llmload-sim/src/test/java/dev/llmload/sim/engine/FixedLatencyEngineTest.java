package dev.llmload.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.testsupport.HostLoad;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The engine thread against the wall clock: tokens never early, late only by its wake-ups. */
@Tag("timing")
class FixedLatencyEngineTest {

    /** Records token times and the finish, as the engine thread reports them. */
    static final class Recorder implements TokenSink {
        final List<Long> tokens = new CopyOnWriteArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);
        volatile FinishReason reason;
        volatile long scheduled;

        @Override
        public void scheduled(long nanos) {
            scheduled = nanos;
        }

        @Override
        public void tokens(int count, long nanos) {
            tokens.add(nanos);
        }

        @Override
        public void finished(FinishReason reason, long nanos) {
            this.reason = reason;
            done.countDown();
        }
    }

    private static GenerationRequest request(String id, int maxTokens) {
        return new GenerationRequest(id, new int[10], maxTokens, 0, true, System.nanoTime());
    }

    @Test
    void emitsAtTtftThenEveryItl() throws Exception {
        try (var engine = new FixedLatencyEngine(new FixedLatencyModel(30, 1, 5, 0, 1, 10), 1000, 1)) {
            Recorder r = new Recorder();
            GenerationRequest req = request("a", 6);
            assertThat(engine.submit(req, r)).isEqualTo(Admission.ACCEPTED);
            assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(r.reason).isEqualTo(FinishReason.LENGTH);
            assertThat(r.tokens).hasSize(6);
            // 30 ms + 10 prompt tokens × 1 ms; never early, and late only by the thread's wake-up,
            // which is a few ms on a 2-core machine, more when its run queue is longer than its cores.
            double lateMs = HostLoad.slackMs(8);
            assertThat((r.tokens.getFirst() - req.arrivalNanos()) / 1e6)
                    .as(HostLoad.describe())
                    .isBetween(40.0, 40.0 + lateMs);
            // Tokens are due on absolute times, 5 ms apart: never early, and a late wake-up does not
            // push the later tokens back.
            for (int i = 1; i < 6; i++) {
                assertThat((r.tokens.get(i) - req.arrivalNanos()) / 1e6)
                        .as(HostLoad.describe())
                        .isBetween(40.0 + 5 * i, 40.0 + lateMs + 5 * i);
            }
            assertThat(engine.snapshot().generationTokens()).isEqualTo(6);
            assertThat(engine.snapshot().promptTokens()).isEqualTo(10);
        }
    }

    @Test
    void pauseDelaysEveryLaterToken() throws Exception {
        try (var engine = new FixedLatencyEngine(new FixedLatencyModel(5, 0, 10, 0, 1, 10), 1000, 1)) {
            Recorder r = new Recorder();
            engine.submit(request("a", 10), r);
            Thread.sleep(30);
            engine.pause(Duration.ofMillis(200));
            assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            long maxGap = 0;
            for (int i = 1; i < r.tokens.size(); i++) {
                maxGap = Math.max(maxGap, r.tokens.get(i) - r.tokens.get(i - 1));
            }
            // The 200 ms pause falls between two tokens 10 ms apart: the gap is the pause plus at most
            // one interval, and a late wake-up.
            assertThat(maxGap / 1e6).as(HostLoad.describe()).isBetween(195.0, 210.0 + HostLoad.slackMs(20));
        }
    }

    @Test
    void cancelEndsWithAbortAndRejectsTooLongRequests() throws Exception {
        try (var engine = new FixedLatencyEngine(new FixedLatencyModel(5, 0, 10, 0, 1, 10), 100, 1)) {
            Recorder r = new Recorder();
            engine.submit(request("a", 50), r);
            Thread.sleep(30);
            int beforeCancel = r.tokens.size();
            engine.cancel("a");
            assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(r.reason).isEqualTo(FinishReason.ABORT);
            // The engine thread reads the cancel before its next token (10 ms later) unless it is
            // already emitting one; a thread woken late first emits the tokens it owes, so on a busy
            // machine a few more. Never the 50 asked for, whenever the test itself ran.
            assertThat(beforeCancel).isPositive();
            assertThat(r.tokens.size())
                    .as(HostLoad.describe())
                    .isBetween(beforeCancel, beforeCancel + (int) Math.ceil(HostLoad.factor()));
            assertThat(engine.snapshot().running()).isZero();

            Admission tooLong = engine.submit(request("b", 91), new Recorder());
            assertThat(tooLong)
                    .isInstanceOfSatisfying(
                            Admission.Rejected.class,
                            rej -> assertThat(rej.httpStatus()).isEqualTo(400));
        }
    }
}
