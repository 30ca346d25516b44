package dev.llmload.sim.engine.batching;

import static dev.llmload.sim.engine.batching.VirtualTimeDriver.prompt;
import static dev.llmload.sim.engine.batching.VirtualTimeDriver.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The threaded engine against the clock. Short and with loose tolerances: the machine running the
 * tests is shared, so only gross timing errors may fail them.
 */
@Tag("timing")
class BatchingEngineTest {

    private static final long MS = 1_000_000L;
    /** Slowed down 4x so that scheduling noise of a few ms is small against a 23 ms step. */
    private static final BatchingEngineConfig CONFIG =
            BatchingEngineConfig.builder().speedup(0.25).build();

    /** A recording that also lets the test wait for the end. */
    private static final class Awaited extends Recording {
        final CountDownLatch done = new CountDownLatch(1);

        Awaited(GenerationRequest request) {
            super(request);
        }

        @Override
        public synchronized void tokens(int count, long nanos) {
            super.tokens(count, nanos);
        }

        @Override
        public synchronized void finished(FinishReason reason, long nanos) {
            super.finished(reason, nanos);
            done.countDown();
        }
    }

    @Test
    void tokensComeOutAtTheModelledTimesWithLittleStepLag() throws InterruptedException {
        // The same request in virtual time gives the modelled token times.
        VirtualTimeDriver virtual = new VirtualTimeDriver(CONFIG);
        Recording modelled = virtual.submit(request("r", 0, prompt(1, 1000), 12, 0, true));
        virtual.run();

        try (BatchingEngine engine = BatchingEngine.start(CONFIG)) {
            GenerationRequest req = request("r", System.nanoTime(), prompt(1, 1000), 12, 0, true);
            Awaited real = new Awaited(req);
            assertThat(engine.submit(req, real)).isEqualTo(Admission.ACCEPTED);
            assertThat(real.done.await(10, TimeUnit.SECONDS)).isTrue();

            List<long[]> expected = modelled.tokenEvents;
            List<long[]> actual;
            synchronized (real) {
                actual = List.copyOf(real.tokenEvents);
            }
            assertThat(actual).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                long wanted = expected.get(i)[0];
                long got = actual.get(i)[0] - req.arrivalNanos();
                assertThat(got)
                        .as("token %d at %d ms, modelled %d ms", i, got / MS, wanted / MS)
                        .isBetween(wanted - 5 * MS, wanted + 100 * MS);
            }
            assertThat(real.finishReason).isEqualTo(FinishReason.LENGTH);
            assertThat(engine.snapshot().generationTokens()).isEqualTo(12);
            assertThat(engine.snapshot().stepLagSeconds()).isLessThan(0.1);
        }
    }

    /**
     * The snapshot a scrape reads is published before a step's tokens go to their sinks: a client
     * that has read a token and then asks {@code /metrics} finds it counted. Each sink call reads
     * the snapshot as a scrape at that moment would.
     */
    @Test
    void everyTokenASinkIsGivenIsAlreadyInTheSnapshot() throws InterruptedException {
        try (BatchingEngine engine =
                BatchingEngine.start(BatchingEngineConfig.builder().speedup(4).build())) {
            int requests = 4;
            int outputTokens = 30;
            CountDownLatch done = new CountDownLatch(requests);
            long[] given = new long[1]; // every sink is called on the engine's thread
            long[] shortest = {Long.MAX_VALUE};
            for (int r = 0; r < requests; r++) {
                GenerationRequest req = request("r" + r, System.nanoTime(), prompt(r, 200), outputTokens, 0, true);
                engine.submit(req, new Recording(req) {
                    @Override
                    public void tokens(int count, long nanos) {
                        given[0] += count;
                        shortest[0] = Math.min(shortest[0], engine.snapshot().generationTokens() - given[0]);
                        super.tokens(count, nanos);
                    }

                    @Override
                    public void finished(FinishReason reason, long nanos) {
                        super.finished(reason, nanos);
                        done.countDown();
                    }
                });
            }
            // The latch orders the engine thread's writes before these reads.
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(given[0]).isEqualTo((long) requests * outputTokens);
            assertThat(shortest[0])
                    .as("the snapshot's generated tokens less those given to sinks so far, at its lowest")
                    .isGreaterThanOrEqualTo(0);
        }
    }

    /**
     * Nor does the snapshot count as running a request whose sink has been told it finished: a
     * client that has read an answer whole and then asks {@code /metrics} does not find it running
     * (it did, on a busy host, when the engine's thread waited for a core between a step's delivery
     * and the snapshot after it). Answers of four lengths end in four different steps; each sink's
     * end reads the snapshot as a scrape at that moment would.
     */
    @Test
    void aRequestItsSinkWasToldHasFinishedIsNoLongerRunningInTheSnapshot() throws InterruptedException {
        try (BatchingEngine engine =
                BatchingEngine.start(BatchingEngineConfig.builder().speedup(4).build())) {
            int requests = 4;
            CountDownLatch done = new CountDownLatch(requests);
            int[] unfinished = {requests}; // every sink is called on the engine's thread
            int[] mostOver = {Integer.MIN_VALUE};
            for (int r = 0; r < requests; r++) {
                GenerationRequest req = request("r" + r, System.nanoTime(), prompt(r, 200), 10 * (r + 1), 0, true);
                engine.submit(req, new Recording(req) {
                    @Override
                    public void finished(FinishReason reason, long nanos) {
                        unfinished[0]--;
                        mostOver[0] = Math.max(mostOver[0], engine.snapshot().running() - unfinished[0]);
                        super.finished(reason, nanos);
                        done.countDown();
                    }
                });
            }
            // The latch orders the engine thread's writes before these reads.
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(mostOver[0])
                    .as("the snapshot's running requests less those not yet finished, at a sink's end, at its highest")
                    .isLessThanOrEqualTo(0);
            assertThat(engine.snapshot().running()).isZero();
        }
    }

    @Test
    void pauseHoldsEveryStep() throws InterruptedException {
        try (BatchingEngine engine =
                BatchingEngine.start(BatchingEngineConfig.builder().speedup(4).build())) {
            GenerationRequest req = request("r", System.nanoTime(), prompt(1, 100), 40, 0, true);
            Awaited rec = new Awaited(req);
            engine.pause(Duration.ofMillis(300));
            engine.submit(req, rec);
            assertThat(rec.done.await(10, TimeUnit.SECONDS)).isTrue();
            // Unpaused, 40 tokens take about 60 ms at this speed-up.
            synchronized (rec) {
                assertThat(rec.firstTokenAt() - req.arrivalNanos()).isGreaterThanOrEqualTo(290 * MS);
            }
        }
    }

    @Test
    void closeAbortsWhatIsInFlight() throws InterruptedException {
        BatchingEngine engine = BatchingEngine.start(BatchingEngineConfig.defaults());
        GenerationRequest req = request("r", System.nanoTime(), prompt(1, 100), 5000, 0, true);
        Awaited rec = new Awaited(req);
        engine.submit(req, rec);
        Thread.sleep(50);
        engine.close();
        assertThat(rec.done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(rec.finishReason).isEqualTo(FinishReason.ABORT);
        assertThat(engine.submit(request("late", System.nanoTime(), prompt(2, 10), 5, 0, true), new Recording(req)))
                .isInstanceOf(Admission.Rejected.class);
    }

    /**
     * Nothing is scheduled before it was handed over, however the engine thread's clock reading
     * and its inbox interleave with submitting threads: the ground truth's engine_queue_ms is never
     * negative. Two threads hand over requests while the engine runs steps back to back.
     */
    @Test
    void noRequestIsScheduledBeforeItsHandOver() throws Exception {
        List<Awaited> all = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (BatchingEngine engine =
                BatchingEngine.start(BatchingEngineConfig.builder().speedup(20).build())) {
            Runnable submitter = () -> {
                for (int i = 0; i < 200; i++) {
                    GenerationRequest req =
                            request(Thread.currentThread().getName() + i, System.nanoTime(), prompt(i, 20), 2, 0, true);
                    Awaited rec = new Awaited(req);
                    all.add(rec);
                    engine.submit(req, rec);
                    if (i % 8 == 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    }
                }
            };
            Thread a = Thread.ofPlatform().name("a").start(submitter);
            Thread b = Thread.ofPlatform().name("b").start(submitter);
            a.join();
            b.join();
            for (Awaited rec : all) {
                assertThat(rec.done.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }
        assertThat(all).hasSize(400).allSatisfy(rec -> {
            synchronized (rec) {
                assertThat(rec.scheduledAt - rec.request.arrivalNanos())
                        .as("%s scheduled after its hand-over", rec.request.requestId())
                        .isNotNegative();
                assertThat(rec.firstTokenAt()).isGreaterThan(rec.scheduledAt);
            }
        });
    }
}
