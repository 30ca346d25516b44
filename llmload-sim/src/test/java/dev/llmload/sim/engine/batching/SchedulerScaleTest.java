package dev.llmload.sim.engine.batching;

import static dev.llmload.sim.engine.batching.VirtualTimeDriver.prompt;
import static dev.llmload.sim.engine.batching.VirtualTimeDriver.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's own cost at the scale the simulator promises (5,000 concurrent streams, 100,000
 * tokens/s on one core). It measures about 10-30 million tokens/s of scheduling work on a
 * developer machine; the floor asserted here is ten times the promise, loose enough for a busy CI
 * machine, tight enough to catch per-step work growing with the cache or the queue.
 */
@Tag("timing")
class SchedulerScaleTest {

    @Test
    void fiveThousandConcurrentStreamsScheduleFarFasterThanRealTimeNeeds() {
        BatchingEngineConfig config = BatchingEngineConfig.builder()
                .maxNumSeqs(5000)
                .numBlocks(200_000)
                .maxNumBatchedTokens(16384)
                .build();
        long[] tokens = new long[1];
        TokenSink sink = new TokenSink() {
            @Override
            public void scheduled(long nanos) {}

            @Override
            public void tokens(int count, long nanos) {
                tokens[0] += count;
            }

            @Override
            public void finished(FinishReason reason, long nanos) {}
        };
        double best = 0;
        for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
            BatchScheduler scheduler = new BatchScheduler(config);
            tokens[0] = 0;
            for (int i = 0; i < 5000; i++) {
                GenerationRequest r = request("r" + i, 0, prompt(i, 500), 400, 0, true);
                scheduler.reserve(r);
                scheduler.enqueue(r, sink);
            }
            long start = System.nanoTime();
            long now = 0;
            while (scheduler.hasWork()) {
                now += scheduler.beginStep(now);
                scheduler.endStep(now);
            }
            best = Math.max(best, tokens[0] / ((System.nanoTime() - start) / 1e9));
            assertThat(tokens[0]).isEqualTo(5000L * 400);
        }
        assertThat(best).isGreaterThan(1_000_000);
    }
}
