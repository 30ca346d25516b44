package dev.llmload.load;

import dev.llmload.http.LoadHttpClient;
import dev.llmload.http.HttpExchangeRequest;
import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.schedule.ConcurrencyPlan;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Sends a run's requests: on absolute target times from a precomputed schedule (open loop, never
 * driven by completions) or one per completion (closed loop), through a concurrency gate. The
 * schedule is walked by the thread that calls {@link #run} (the dispatcher thread); the gate's
 * state is guarded by its monitor because completions arrive on the I/O threads.
 */
public final class Dispatcher implements Sender {

    /** Parking is accurate to tens of microseconds; the last stretch before a send is spun. */
    private static final long SPIN_NANOS = 100_000;
    /** How long before its target a request is handed to its event loop's timer. */
    private static final long HAND_OVER_LEAD_NANOS = 2_000_000;

    private final LoadHttpClient client;
    private final OpenAiCodec codec;
    private final Timeouts timeouts;
    private final LoadPlan plan;
    private final Iterator<PreparedRequest> requests;
    private final long maxRequests;
    private final int warmup;
    private final long warmupEndNanos;
    private final Consumer<FinishedRequest> recorder;
    private final long runStartNanos;
    private final long deadlineNanos;
    private final String requestIdPrefix;
    private final Set<RequestExecution> inFlight = ConcurrentHashMap.newKeySet();

    private final Object gate = new Object();
    /** Guarded by {@link #gate}. */
    private int slotsInUse;
    /** Requests waiting for a slot, with their intended send time; guarded by {@link #gate}. */
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    /** Guarded by {@link #gate}. */
    private long dispatched;
    /** Guarded by {@link #gate}. */
    private long finished;
    private volatile boolean stopping;
    private volatile long stopRequestedNanos;
    /**
     * Guarded by {@link #gate}: no further request will be sent. The open loop sets it when its
     * walk ends; the closed loop when it finds nothing more to send.
     */
    private boolean doneSending;
    private volatile Thread dispatcherThread;
    private final CountDownLatch allFinished = new CountDownLatch(1);

    private record Pending(PreparedRequest request, long index, long intendedNanos) {}

    /**
     * @param maxRequests the most requests to send (for the open loop the schedule's length)
     * @param duration    stop sending after this long (null: no time bound)
     * @param warmup      the first this many requests are warm-up
     * @param warmupTime  so are requests intended to start within this time of the run's start (null: none)
     */
    public Dispatcher(LoadHttpClient client, OpenAiCodec codec, Timeouts timeouts, LoadPlan plan,
                      Iterator<PreparedRequest> requests, long maxRequests, Duration duration, int warmup,
                      Duration warmupTime, Consumer<FinishedRequest> recorder, long runStartNanos,
                      String requestIdPrefix) {
        this.client = client;
        this.codec = codec;
        this.timeouts = timeouts;
        this.plan = plan;
        this.requests = requests;
        this.maxRequests = plan instanceof LoadPlan.OpenLoop open
                ? Math.min(maxRequests, open.offsetsNanos().length) : maxRequests;
        this.warmup = warmup;
        this.warmupEndNanos = warmupTime == null ? runStartNanos : runStartNanos + warmupTime.toNanos();
        this.recorder = recorder;
        this.runStartNanos = runStartNanos;
        long deadline = duration == null ? Long.MAX_VALUE : runStartNanos + duration.toNanos();
        if (plan instanceof LoadPlan.ClosedLoop closed && closed.concurrency().length().isPresent()) {
            deadline = Math.min(deadline, runStartNanos + closed.concurrency().length().get().toNanos());
        }
        this.deadlineNanos = deadline;
        this.requestIdPrefix = requestIdPrefix;
    }

    /** Sends every request and returns once all have finished or {@link #stop} ended the run. */
    @Override
    public void run(Duration grace) throws InterruptedException {
        dispatcherThread = Thread.currentThread();
        switch (plan) {
            case LoadPlan.ClosedLoop closed -> followConcurrencyPlan(closed.concurrency());
            case LoadPlan.OpenLoop open -> {
                walkSchedule(open);
                synchronized (gate) {
                    doneSending = true;
                }
            }
        }
        checkAllFinished();
        // In-flight requests may finish until the grace period after the deadline or the stop;
        // whatever is still running then is cancelled and recorded as such.
        while (true) {
            long stoppedAt = stopRequestedNanos;
            long limit = stoppedAt != 0 ? stoppedAt + grace.toNanos()
                    : deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos + grace.toNanos();
            long slice = TimeUnit.MILLISECONDS.toNanos(100);
            if (limit != Long.MAX_VALUE) {
                long remaining = limit - System.nanoTime();
                if (remaining <= 0) {
                    cancelEverything("the run ended before the request finished");
                    allFinished.await();
                    return;
                }
                slice = Math.min(slice, remaining);
            }
            if (allFinished.await(slice, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    /** Stops sending; requests in flight get the grace period given to {@link #run}. Any thread. */
    @Override
    public void stop() {
        if (stopRequestedNanos == 0) {
            stopRequestedNanos = System.nanoTime();
        }
        stopping = true;
        checkAllFinished();
        Thread thread = dispatcherThread;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Fills the closed loop up to its target now, then, for a plan that changes over time, keeps
     * checking the target until nothing more will be sent (completions also top the loop up).
     */
    private void followConcurrencyPlan(ConcurrencyPlan concurrency) {
        fillClosedLoop();
        if (concurrency instanceof ConcurrencyPlan.Fixed) {
            return;
        }
        while (!stopping) {
            synchronized (gate) {
                if (doneSending) {
                    return;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            fillClosedLoop();
        }
    }

    /** Starts requests while fewer than the plan's current target are in flight and more remain. */
    private void fillClosedLoop() {
        ConcurrencyPlan concurrency = ((LoadPlan.ClosedLoop) plan).concurrency();
        while (true) {
            PreparedRequest request;
            long index;
            synchronized (gate) {
                long now = System.nanoTime();
                if (slotsInUse >= concurrency.concurrencyAt(now - runStartNanos)) {
                    return;
                }
                if (stopping || dispatched >= maxRequests || now >= deadlineNanos || !requests.hasNext()) {
                    doneSending = true;
                    return;
                }
                request = requests.next();
                index = dispatched++;
                slotsInUse++;
            }
            long now = System.nanoTime();
            send(request, index, now, now);
        }
    }

    private void walkSchedule(LoadPlan.OpenLoop open) {
        long[] offsets = open.offsetsNanos();
        int limit = open.maxConcurrency() > 0 ? open.maxConcurrency() : Integer.MAX_VALUE;
        for (int i = 0; i < maxRequests && !stopping; i++) {
            long target = runStartNanos + offsets[i];
            if (target >= deadlineNanos || !requests.hasNext()) {
                break;
            }
            // Wake a little early and hand the request to its event loop's timer, which sends it
            // at the target: one wake-up at the send instead of two.
            waitUntil(target - HAND_OVER_LEAD_NANOS);
            if (stopping) {
                break;
            }
            PreparedRequest request = requests.next();
            boolean sendNow;
            synchronized (gate) {
                dispatched++;
                sendNow = slotsInUse < limit;
                if (sendNow) {
                    slotsInUse++;
                } else {
                    waiting.add(new Pending(request, i, target));
                }
            }
            if (sendNow) {
                send(request, i, target, target);
            }
        }
    }

    private void waitUntil(long target) {
        long remaining;
        while (!stopping && (remaining = target - System.nanoTime()) > 0) {
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** @param startNanos when the request should go out: now, or its target time a moment ahead */
    private void send(PreparedRequest request, long index, long intendedNanos, long startNanos) {
        String requestId = requestIdPrefix + index;
        RequestExecution execution = new RequestExecution(request, requestId, isWarmup(index, intendedNanos), intendedNanos,
                startNanos, codec, timeouts, this::onFinished);
        inFlight.add(execution);
        execution.started(client.sendAt(new HttpExchangeRequest("POST", codec.path(),
                Map.of("x-request-id", requestId), request.body()), execution, startNanos));
    }

    private boolean isWarmup(long index, long intendedNanos) {
        return index < warmup || intendedNanos < warmupEndNanos;
    }

    private void onFinished(RequestExecution execution, FinishedRequest request) {
        inFlight.remove(execution);
        recorder.accept(request);
        Pending next = null;
        boolean closedLoop = plan instanceof LoadPlan.ClosedLoop;
        synchronized (gate) {
            finished++;
            if (!closedLoop) {
                next = stopping ? null : waiting.poll();
                if (next == null) {
                    slotsInUse--;
                }
            } else {
                slotsInUse--;
            }
        }
        if (next != null) {
            send(next.request(), next.index(), next.intendedNanos(), System.nanoTime());
        } else if (closedLoop) {
            fillClosedLoop();
        }
        checkAllFinished();
    }

    private void checkAllFinished() {
        synchronized (gate) {
            if (finished == dispatched && waiting.isEmpty() && (doneSending || stopping)) {
                allFinished.countDown();
            }
        }
    }

    private void cancelEverything(String reason) {
        List<Pending> neverSent;
        synchronized (gate) {
            neverSent = List.copyOf(waiting);
            waiting.clear();
            finished += neverSent.size();
        }
        long now = System.nanoTime();
        for (Pending pending : neverSent) {
            recorder.accept(FinishedRequest.neverSent(pending.request(), requestIdPrefix + pending.index(),
                    isWarmup(pending.index(), pending.intendedNanos()), pending.intendedNanos(), now,
                    "it waited at the concurrency gate when the run ended"));
        }
        for (RequestExecution execution : inFlight) {
            execution.cancel(reason);
        }
        checkAllFinished();
    }
}
