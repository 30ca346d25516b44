package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;
import java.util.ArrayList;
import java.util.List;

/** A sink that keeps every callback of one request with its time, for assertions. */
class Recording implements TokenSink {

    final GenerationRequest request;
    Admission admission;
    long scheduledAt = -1;
    final List<long[]> tokenEvents = new ArrayList<>(); // {nanos, count}
    FinishReason finishReason;
    long finishedAt = -1;
    int callsAfterFinish;

    Recording(GenerationRequest request) {
        this.request = request;
    }

    @Override
    public void scheduled(long nanos) {
        if (scheduledAt >= 0 || finishReason != null) {
            callsAfterFinish++;
        }
        scheduledAt = nanos;
    }

    @Override
    public void tokens(int count, long nanos) {
        if (finishReason != null) {
            callsAfterFinish++;
        }
        tokenEvents.add(new long[] {nanos, count});
    }

    @Override
    public void finished(FinishReason reason, long nanos) {
        if (finishReason != null) {
            callsAfterFinish++;
        }
        finishReason = reason;
        finishedAt = nanos;
    }

    int tokenCount() {
        return tokenEvents.stream().mapToInt(e -> (int) e[1]).sum();
    }

    long firstTokenAt() {
        return tokenEvents.get(0)[0];
    }

    /** Time to first token, from arrival. */
    long ttft() {
        return firstTokenAt() - request.arrivalNanos();
    }

    /** Gaps between consecutive token events. */
    List<Long> itls() {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < tokenEvents.size(); i++) {
            gaps.add(tokenEvents.get(i)[0] - tokenEvents.get(i - 1)[0]);
        }
        return gaps;
    }
}
