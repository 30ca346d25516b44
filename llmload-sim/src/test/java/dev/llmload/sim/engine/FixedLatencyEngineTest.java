package dev.llmload.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

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
            // which is a few ms on a loaded 2-core machine.
            assertThat((r.tokens.getFirst() - req.arrivalNanos()) / 1e6).isBetween(40.0, 48.0);
            // Tokens are due on absolute times, 5 ms apart: never early, and a late wake-up does not
            // push the later tokens back.
            for (int i = 1; i < 6; i++) {
                assertThat((r.tokens.get(i) - req.arrivalNanos()) / 1e6).isBetween(40.0 + 5 * i, 48.0 + 5 * i);
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
            assertThat(maxGap / 1e6).isBetween(195.0, 230.0);
        }
    }

    @Test
    void cancelEndsWithAbortAndRejectsTooLongRequests() throws Exception {
        try (var engine = new FixedLatencyEngine(new FixedLatencyModel(5, 0, 10, 0, 1, 10), 100, 1)) {
            Recorder r = new Recorder();
            engine.submit(request("a", 50), r);
            Thread.sleep(30);
            engine.cancel("a");
            assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(r.reason).isEqualTo(FinishReason.ABORT);
            assertThat(r.tokens.size()).isBetween(1, 4);
            assertThat(engine.snapshot().running()).isZero();

            Admission tooLong = engine.submit(request("b", 91), new Recorder());
            assertThat(tooLong).isInstanceOfSatisfying(Admission.Rejected.class,
                    rej -> assertThat(rej.httpStatus()).isEqualTo(400));
        }
    }
}
