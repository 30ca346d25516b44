package dev.llmload.load;

import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.Dialect;
import dev.llmload.record.InputLog;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * What every sender of a run is given besides what it sends (a feed of independent requests, or
 * sessions): where and how requests go out, the load's plan and bounds, which requests are
 * warm-up, and who hears each finished request. Fixed before the first send; any thread may read it.
 *
 * @param plan            open loop: the schedule of send (or session start) offsets; closed loop:
 *                        the concurrency to keep in flight
 * @param maxRequests     the most requests to send (for the open loop of independent requests,
 *                        at most the schedule's length); {@link Long#MAX_VALUE} for no bound
 * @param duration        send nothing intended after this long (null: no time bound)
 * @param warmup          the first this many requests are warm-up
 * @param warmupTime      so are requests intended to start within this time of the run's start
 *                        (null: none)
 * @param recorder        hears every finished request first, on its event loop
 * @param runStartNanos   the clock every record's offsets count from, and the schedule's zero
 * @param requestIdPrefix each request's id is this and the request's index in the whole run
 * @param inputs          hears the body of every request sent ({@code inputs.jsonl}); null for none
 */
record SendContext(
        LoadHttpClient client,
        Dialect dialect,
        Timeouts timeouts,
        LoadPlan plan,
        long maxRequests,
        Duration duration,
        int warmup,
        Duration warmupTime,
        Consumer<FinishedRequest> recorder,
        long runStartNanos,
        String requestIdPrefix,
        InputLog inputs) {

    /** A {@link Launcher} that sends, tracks and records this context's requests. */
    Launcher launcher() {
        return new Launcher(
                client,
                dialect,
                timeouts,
                recorder,
                requestIdPrefix,
                warmup,
                warmupTime == null ? runStartNanos : runStartNanos + warmupTime.toNanos(),
                inputs);
    }

    /** When {@link #duration} ends: nothing intended at or after it is sent; {@link Long#MAX_VALUE} without one. */
    long durationEndNanos() {
        return duration == null ? Long.MAX_VALUE : runStartNanos + duration.toNanos();
    }
}
