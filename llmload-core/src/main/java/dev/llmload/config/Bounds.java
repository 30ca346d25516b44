package dev.llmload.config;

import dev.llmload.load.Timeouts;
import java.time.Duration;

/**
 * How long a run lasts and how long each request may take.
 *
 * @param numRequests requests (with sessions: turns) to send, warm-up included; null when only a
 *                    duration, a count of sessions or the trace bounds the run
 * @param numSessions root sessions to start (a session run only; subagents come with their root),
 *                    each run whole unless another bound ends the run first; null for no count
 * @param duration    stop sending after this long; null for no time bound
 * @param warmup      the first N requests are left out of the statistics
 * @param warmupTime  requests intended to start within this time of the start are left out too; null for none
 * @param grace       how long requests in flight may finish once sending stops
 * @param stopOnSaturation stop sending once an open loop is certainly saturated ({@code --stop-on-saturation})
 */
public record Bounds(
        Long numRequests,
        Integer numSessions,
        Duration duration,
        int warmup,
        Duration warmupTime,
        Timeouts timeouts,
        Duration grace,
        boolean stopOnSaturation) {

    /** Bounds without a count of sessions that run to the end whatever the server does. */
    public Bounds(
            Long numRequests, Duration duration, int warmup, Duration warmupTime, Timeouts timeouts, Duration grace) {
        this(numRequests, null, duration, warmup, warmupTime, timeouts, grace, false);
    }

    public Bounds {
        if (numRequests != null && numRequests < 1) {
            throw new ConfigException("--num-requests must be at least 1, got " + numRequests);
        }
        if (numSessions != null && numSessions < 1) {
            throw new ConfigException("--num-sessions must be at least 1, got " + numSessions);
        }
        if (warmup < 0) {
            throw new ConfigException("--warmup must not be negative, got " + warmup);
        }
        if (numRequests != null && warmup >= numRequests) {
            throw new ConfigException("--warmup must be fewer than --num-requests, got " + warmup);
        }
        if (timeouts == null || grace == null) {
            throw new ConfigException("timeouts and --grace are required");
        }
    }
}
