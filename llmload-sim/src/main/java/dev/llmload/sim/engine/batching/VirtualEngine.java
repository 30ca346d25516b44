package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The batching engine in virtual time: the same {@link BatchScheduler} the server runs, with steps
 * that take no real time, so a workload of minutes is answered in milliseconds. Arrivals take
 * effect at the next step boundary, as in the threaded {@link BatchingEngine}; steps run back to
 * back while there is work. A {@link FinishListener} may submit more requests as others finish
 * (a closed loop).
 *
 * <p>Not thread-safe: one thread builds, runs and reads it.
 */
public final class VirtualEngine {

    /** Called when a request ends; it may {@link #submit} more at or after {@code nowNanos}. */
    @FunctionalInterface
    public interface FinishListener {
        void finished(Trace trace, long nowNanos);
    }

    /**
     * What happened to one request, in virtual nanoseconds.
     *
     * @param index          the request's number, in order of submission
     * @param promptTokens   its prompt length
     * @param arrivalNanos   when it arrived
     * @param accepted       false when the engine refused it (too long, or a full queue)
     * @param scheduledNanos when it entered the batch; -1 if never
     * @param tokenNanos     when each token event came out (one token each unless speculative decoding)
     * @param outputTokens   tokens generated
     * @param endNanos       when it ended; -1 if it was refused
     */
    public record Trace(
            int index,
            int promptTokens,
            long arrivalNanos,
            boolean accepted,
            long scheduledNanos,
            long[] tokenNanos,
            int outputTokens,
            long endNanos) {

        /** First token minus arrival, or -1 when no token came. */
        public long ttftNanos() {
            return tokenNanos.length == 0 ? -1 : tokenNanos[0] - arrivalNanos;
        }
    }

    private record Arrival(long at, int index, GenerationRequest request) {}

    private final BatchScheduler scheduler;
    private final PriorityQueue<Arrival> arrivals =
            new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Integer.compare(a.index, b.index));
    private final List<Trace> traces = new ArrayList<>();
    private long now;
    private int submitted;
    private long steps;

    public VirtualEngine(BatchingEngineConfig config) {
        scheduler = new BatchScheduler(config);
    }

    /**
     * Queues a request of {@code promptTokens} tokens arriving at {@code arrivalNanos} (not before
     * the current virtual time), generating exactly {@code maxTokens} when {@code ignoreEos}, else
     * the engine's natural output length capped there. Its prompt shares no prefix with any other.
     *
     * @return the request's index
     */
    public int submit(long arrivalNanos, int promptTokens, int maxTokens, boolean ignoreEos) {
        int index = submitted++;
        int[] ids = new int[promptTokens];
        for (int i = 0; i < promptTokens; i++) {
            ids[i] = index * 100_003 + i;
        }
        long at = Math.max(arrivalNanos, now);
        arrivals.add(new Arrival(at, index, new GenerationRequest("v" + index, ids, maxTokens, 0, ignoreEos, at)));
        return index;
    }

    /** Runs until every submitted request has ended; returns their traces in order of index. */
    public List<Trace> run(FinishListener listener) {
        while (true) {
            while (!arrivals.isEmpty() && arrivals.peek().at <= now) {
                admit(arrivals.poll(), listener);
            }
            if (scheduler.hasWork()) {
                long duration = scheduler.beginStep(now);
                if (duration == 0) {
                    throw new IllegalStateException("the scheduler has work but scheduled nothing at " + now);
                }
                now += duration;
                steps++;
                scheduler.endStep(now);
            } else if (!arrivals.isEmpty()) {
                now = arrivals.peek().at;
            } else {
                break;
            }
        }
        List<Trace> sorted = new ArrayList<>(traces);
        sorted.sort((a, b) -> Integer.compare(a.index, b.index));
        return sorted;
    }

    /** Engine steps run so far. */
    public long steps() {
        return steps;
    }

    private void admit(Arrival a, FinishListener listener) {
        Admission admission = scheduler.reserve(a.request);
        if (admission instanceof Admission.Accepted) {
            scheduler.enqueue(a.request, new Sink(a, listener));
        } else {
            Trace t = new Trace(a.index, a.request.promptTokens(), a.at, false, -1, new long[0], 0, -1);
            traces.add(t);
            listener.finished(t, now);
        }
    }

    /** Collects one request's life; called on the thread that runs the engine. */
    private final class Sink implements TokenSink {
        private final Arrival arrival;
        private final FinishListener listener;
        private long scheduled = -1;
        private long[] tokenNanos = new long[16];
        private int events;
        private int tokens;

        Sink(Arrival arrival, FinishListener listener) {
            this.arrival = arrival;
            this.listener = listener;
        }

        @Override
        public void scheduled(long nanos) {
            scheduled = nanos;
        }

        @Override
        public void tokens(int count, long nanos) {
            if (events == tokenNanos.length) {
                tokenNanos = Arrays.copyOf(tokenNanos, events * 2);
            }
            tokenNanos[events++] = nanos;
            tokens += count;
        }

        @Override
        public void finished(FinishReason reason, long nanos) {
            Trace t = new Trace(
                    arrival.index,
                    arrival.request.promptTokens(),
                    arrival.at,
                    true,
                    scheduled,
                    Arrays.copyOf(tokenNanos, events),
                    tokens,
                    nanos);
            traces.add(t);
            listener.finished(t, nanos);
        }
    }
}
