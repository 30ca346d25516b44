package dev.llmload.load;

import dev.llmload.http.HttpExchangeRequest;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.Dialect;
import dev.llmload.record.InputLog;
import dev.llmload.workload.RequestSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What every sender of a run shares, whatever its policy: sending a request on its event loop's
 * timer, the set of requests in flight, cancelling them all, recording a request that was never
 * sent, which requests are warm-up, and pacing the dispatcher thread towards a target time. The
 * dispatchers keep only their policies (a schedule or a closed loop behind a gate; sessions).
 *
 * <p>Threads: {@link #send}, {@link #neverSent} and {@link #cancelInFlight} may be called from
 * the dispatcher thread or from an event loop (a completion that starts the next request); the
 * in-flight set is concurrent and everything else is fixed at construction. {@link #waitUntil}
 * runs only on the dispatcher thread.
 */
final class Launcher {

    /** Parking is accurate to tens of microseconds; the last stretch before a target is spun. */
    private static final long SPIN_NANOS = 100_000;
    /** How long before its target a request is handed to its event loop's timer. */
    static final long HAND_OVER_LEAD_NANOS = 2_000_000;

    private final LoadHttpClient client;
    private final Dialect dialect;
    private final Timeouts timeouts;
    private final Consumer<FinishedRequest> recorder;
    private final String requestIdPrefix;
    private final int warmup;
    private final long warmupEndNanos;
    /** Hears each body sent; null for none. */
    private final InputLog inputs;
    /**
     * Requests sent and not yet ended. An execution can end on its event loop before the sending
     * thread has added it (a send due at once that fails at once), so the sender and the ending
     * each flip the entry atomically: whichever comes second removes it, and no entry outlives its
     * request (the count the progress line shows would otherwise drift up). The value says which
     * came first: true for the send, false for an end that beat it (nothing to cancel).
     */
    private final ConcurrentHashMap<RequestExecution, Boolean> inFlight = new ConcurrentHashMap<>();

    /**
     * @param recorder       hears every finished request first, on its event loop
     * @param warmup         the first this many sends are warm-up
     * @param warmupEndNanos so are requests intended to start before this time
     * @param inputs         hears the body of every request sent ({@code inputs.jsonl}); null for none
     */
    Launcher(
            LoadHttpClient client,
            Dialect dialect,
            Timeouts timeouts,
            Consumer<FinishedRequest> recorder,
            String requestIdPrefix,
            int warmup,
            long warmupEndNanos,
            InputLog inputs) {
        this.client = client;
        this.dialect = dialect;
        this.timeouts = timeouts;
        this.recorder = recorder;
        this.requestIdPrefix = requestIdPrefix;
        this.warmup = warmup;
        this.warmupEndNanos = warmupEndNanos;
        this.inputs = inputs;
    }

    /** A request ready to send: its body encoded in the run's dialect. */
    PreparedRequest prepare(RequestSpec spec) {
        return PreparedRequest.encode(spec, dialect);
    }

    /** @param number the request's index in the whole run (its {@link dev.llmload.workload.RequestSpec#index()}) */
    String requestId(long number) {
        return requestIdPrefix + number;
    }

    /** @param sendIndex how many requests were sent before this one */
    boolean isWarmup(long sendIndex, long intendedNanos) {
        return sendIndex < warmup || intendedNanos < warmupEndNanos;
    }

    /**
     * Sends {@code request} at {@code startNanos}: its event loop's timer takes it up then (at
     * once when that time has passed), and that moment is the send time its latencies count from.
     * When it has ended, the recorder hears it and then {@code then}, on that event loop.
     */
    void send(
            PreparedRequest request,
            String requestId,
            boolean warmupRequest,
            long intendedNanos,
            long startNanos,
            Consumer<FinishedRequest> then) {
        RequestExecution execution = new RequestExecution(
                request.facts(),
                requestId,
                warmupRequest,
                intendedNanos,
                startNanos,
                dialect,
                timeouts,
                (done, finished) -> {
                    flip(done, false);
                    recorder.accept(finished);
                    then.accept(finished);
                });
        Map<String, String> headers = dialect.headers().isEmpty()
                ? Map.of("x-request-id", requestId)
                : withRequestId(dialect.headers(), requestId);
        execution.started(client.sendAt(
                new HttpExchangeRequest("POST", dialect.path(), headers, request.body()), execution, startNanos));
        if (inputs != null) {
            // Handed over, never written here: this may be an event loop.
            inputs.sent(request.facts().index(), requestId, request.body());
        }
        // Added once it can be cancelled; one that ended before this line is cancelled in vain, harmlessly.
        flip(execution, true);
    }

    /** The first of a request's send and its end adds its entry, the second removes it. */
    private void flip(RequestExecution execution, boolean sent) {
        inFlight.compute(execution, (e, present) -> present == null ? sent : null);
    }

    private static Map<String, String> withRequestId(Map<String, String> dialectHeaders, String requestId) {
        Map<String, String> headers = new java.util.HashMap<>(dialectHeaders);
        headers.put("x-request-id", requestId);
        return headers;
    }

    /** Records a request that never left the client as cancelled, having ended at {@code endedNanos}. */
    void neverSent(
            PreparedRequest request,
            String requestId,
            boolean warmupRequest,
            long intendedNanos,
            long endedNanos,
            String why) {
        recorder.accept(
                FinishedRequest.neverSent(request.facts(), requestId, warmupRequest, intendedNanos, endedNanos, why));
    }

    /** Requests sent and not yet finished. Any thread. */
    int inFlight() {
        return inFlight.size();
    }

    /** Ends every request in flight as cancelled, for {@code reason}. Any thread. */
    void cancelInFlight(String reason) {
        for (Map.Entry<RequestExecution, Boolean> entry : inFlight.entrySet()) {
            if (entry.getValue()) {
                entry.getKey().cancel(reason);
            }
        }
    }

    /**
     * Waits on the calling (dispatcher) thread until {@code targetNanos}: parks, then spins the
     * last stretch. Returns early once {@code keepWaiting} is false; it is checked after every
     * wake-up, so an unpark makes it look.
     */
    static void waitUntil(long targetNanos, BooleanSupplier keepWaiting) {
        long remaining;
        while (keepWaiting.getAsBoolean() && (remaining = targetNanos - System.nanoTime()) > 0) {
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
