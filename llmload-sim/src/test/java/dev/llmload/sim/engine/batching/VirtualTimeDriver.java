package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.EngineSnapshot;
import dev.llmload.sim.engine.GenerationRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Runs a {@link BatchScheduler} in virtual time: steps take no real time, arrivals and
 * cancellations happen at given virtual instants (taking effect at the next step boundary, as in
 * the threaded engine), and every step is recorded.
 */
final class VirtualTimeDriver {

    /** One finished step: when it ran, what it computed, and the engine's state after it. */
    record Step(long start, long end, StepShape shape, EngineSnapshot after) {}

    private record Event(long at, long order, Runnable action) {}

    final BatchScheduler scheduler;
    final List<Step> steps = new ArrayList<>();
    private final PriorityQueue<Event> events =
            new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
    private long order;
    private long now;

    VirtualTimeDriver(BatchingEngineConfig config) {
        scheduler = new BatchScheduler(config);
    }

    static GenerationRequest request(
            String id, long arrival, int[] prompt, int maxTokens, int minTokens, boolean ignoreEos) {
        return new GenerationRequest(id, prompt, maxTokens, minTokens, ignoreEos, arrival);
    }

    /** Prompt token ids unique to {@code seed}, so different seeds share no prefix. */
    static int[] prompt(int seed, int length) {
        int[] ids = new int[length];
        for (int i = 0; i < length; i++) {
            ids[i] = seed * 100_003 + i;
        }
        return ids;
    }

    /** Submits the request at its {@code arrivalNanos}. */
    Recording submit(GenerationRequest request) {
        Recording rec = new Recording(request);
        at(request.arrivalNanos(), () -> {
            rec.admission = scheduler.reserve(request);
            if (rec.admission instanceof Admission.Accepted) {
                scheduler.enqueue(request, rec);
            }
        });
        return rec;
    }

    void cancelAt(long at, String requestId) {
        at(at, () -> scheduler.cancel(requestId, now));
    }

    /** Runs until no event is left and the engine is idle. */
    void run() {
        while (true) {
            while (!events.isEmpty() && events.peek().at <= now) {
                events.poll().action.run();
            }
            if (scheduler.hasWork()) {
                long start = now;
                long duration = scheduler.beginStep(now);
                if (duration == 0) {
                    throw new IllegalStateException("the scheduler has work but scheduled nothing at " + now);
                }
                StepShape shape = scheduler.lastStep();
                now += duration;
                scheduler.endStep(now);
                steps.add(new Step(start, now, shape, scheduler.snapshot(0)));
            } else if (!events.isEmpty()) {
                now = events.peek().at;
            } else {
                return;
            }
        }
    }

    long now() {
        return now;
    }

    EngineSnapshot snapshot() {
        return scheduler.snapshot(0);
    }

    private void at(long at, Runnable action) {
        events.add(new Event(at, order++, action));
    }
}
