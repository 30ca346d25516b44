package dev.llmload.load;

import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.schedule.ConcurrencyPlan;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Sends a run's independent requests: on absolute target times from a precomputed schedule (open
 * loop, never driven by completions) or one per completion (closed loop), through a concurrency
 * gate. The schedule is walked by the thread that calls {@link #run} (the dispatcher thread); the
 * gate's state is guarded by its monitor because completions arrive on the I/O threads, which
 * send the closed loop's next request themselves.
 *
 * <p>No I/O thread ever waits for the {@link PreparedFeed}: one that finds no request ready marks
 * the loop starved and wakes the dispatcher thread, which waits for preparation and tops the loop
 * up. Sending, the in-flight set and cancelling are the {@code Launcher}'s; the stop, the grace
 * period and the cancelling at its end are the {@link RunEnd}'s, as for every sender.
 *
 * <p>A closed loop backs off from a server it cannot reach: a request whose connection could not
 * be made ({@code connect}) keeps its slot, and the slot's next request goes out after 50 ms,
 * doubling with each connection failure in a row up to 2 s; any other outcome resets the delay.
 * Without it a dead server turns the loop into thousands of refused connections a second. An
 * open loop keeps its schedule whatever the server does.
 */
final class Dispatcher implements Sender {

    /** The closed loop's delay after the first connection failure in a row; it doubles with each. */
    static final long BACKOFF_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The closed loop's longest delay after connection failures. */
    static final long BACKOFF_MAX_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** How often a closed loop whose target changes over time looks at its target. */
    private static final long PLAN_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Launcher launcher;
    private final LoadPlan plan;
    private final PreparedFeed requests;
    private final long maxRequests;
    private final long runStartNanos;
    private final long deadlineNanos;
    private final RunEnd end;
    private final Consumer<FinishedRequest> whenFinished = this::onFinished;

    private final Object gate = new Object();
    /** Guarded by {@link #gate}. */
    private int slotsInUse;
    /** Requests waiting for a slot, with their intended send time; guarded by {@link #gate}. */
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    /** Guarded by {@link #gate}. */
    private long dispatched;
    /** Guarded by {@link #gate}. */
    private long finished;
    /** Guarded by {@link #gate}: connection failures in a row, for the closed loop's backoff. */
    private int connectFailuresInRow;
    /**
     * Guarded by {@link #gate}: a closed loop had a free slot and the feed no request ready; the
     * dispatcher thread waits for preparation, then fills the slot.
     */
    private boolean starved;
    /**
     * Guarded by {@link #gate}: no further request will be sent. The open loop sets it when its
     * walk ends; the closed loop when it finds nothing more to send.
     */
    private boolean doneSending;

    private final CountDownLatch allFinished = new CountDownLatch(1);

    private record Pending(PreparedRequest request, long intendedNanos) {}

    /**
     * @param requests the run's requests, prepared ahead; the open loop sends at most one per
     *                 offset of its schedule, and a closed loop whose plan has a length stops
     *                 sending at its end
     */
    Dispatcher(SendContext context, PreparedFeed requests) {
        this.launcher = context.launcher();
        this.plan = context.plan();
        this.requests = requests;
        this.maxRequests = plan instanceof LoadPlan.OpenLoop open
                ? Math.min(context.maxRequests(), open.offsetsNanos().length)
                : context.maxRequests();
        this.runStartNanos = context.runStartNanos();
        long deadline = context.durationEndNanos();
        if (plan instanceof LoadPlan.ClosedLoop closed
                && closed.concurrency().length().isPresent()) {
            deadline = Math.min(
                    deadline,
                    runStartNanos + closed.concurrency().length().get().toNanos());
        }
        this.deadlineNanos = deadline;
        this.end = new RunEnd(deadline);
    }

    /** Sends every request and returns once all have finished or {@link #stop} ended the run. */
    @Override
    public void run(Duration grace) throws InterruptedException {
        end.enter();
        switch (plan) {
            case LoadPlan.ClosedLoop closed -> followConcurrencyPlan(closed.concurrency());
            case LoadPlan.OpenLoop open -> walkSchedule(open);
        }
        synchronized (gate) {
            doneSending = true;
        }
        requests.throwIfFailed();
        checkAllFinished();
        // In-flight requests may finish until the grace period after the deadline or the stop;
        // whatever is still running then is cancelled and recorded as such.
        end.drain(allFinished, grace, () -> cancelEverything("the run ended before the request finished"));
    }

    /** Stops sending; requests in flight get the grace period given to {@link #run}. Any thread. */
    @Override
    public void stop() {
        end.stop();
        checkAllFinished();
    }

    @Override
    public int inFlight() {
        return launcher.inFlight();
    }

    /**
     * Fills the closed loop up to its target, then keeps it filled from the dispatcher thread
     * where the I/O threads cannot: while preparation lags (they only poll the feed) and, for a
     * plan that changes over time, as the target grows. Returns when nothing more will be sent.
     */
    private void followConcurrencyPlan(ConcurrencyPlan concurrency) {
        boolean changes = !(concurrency instanceof ConcurrencyPlan.Fixed);
        while (true) {
            fillClosedLoop();
            boolean waitForFeed;
            synchronized (gate) {
                if (doneSending) {
                    return;
                }
                waitForFeed = starved;
            }
            long now = System.nanoTime();
            if (end.stopping() || now >= deadlineNanos) {
                return;
            }
            long until = changes ? Math.min(deadlineNanos, now + PLAN_CHECK_NANOS) : deadlineNanos;
            if (waitForFeed) {
                requests.awaitAvailable(until);
            } else {
                // Woken early when an I/O thread finds the feed empty or sending done, or by a stop.
                LockSupport.parkNanos(this, until - now);
            }
        }
    }

    /**
     * Starts requests while fewer than the plan's current target are in flight and more remain.
     * Never waits: it runs on an I/O thread as a request completes, as well as on the dispatcher
     * thread.
     */
    private void fillClosedLoop() {
        ConcurrencyPlan concurrency = ((LoadPlan.ClosedLoop) plan).concurrency();
        while (true) {
            PreparedRequest request;
            boolean wake = false;
            synchronized (gate) {
                long now = System.nanoTime();
                if (slotsInUse >= concurrency.concurrencyAt(now - runStartNanos)) {
                    starved = false;
                    return;
                }
                boolean more = !end.stopping() && dispatched < maxRequests && now < deadlineNanos;
                request = more ? requests.poll() : null;
                if (request != null) {
                    starved = false;
                    dispatched++;
                    slotsInUse++;
                } else if (!more || requests.ended()) {
                    wake = !doneSending;
                    doneSending = true;
                } else {
                    wake = !starved;
                    starved = true;
                }
            }
            if (request == null) {
                if (wake) {
                    end.wakeDispatcher();
                }
                return;
            }
            long now = System.nanoTime();
            send(request, now, now);
        }
    }

    private void walkSchedule(LoadPlan.OpenLoop open) {
        long[] offsets = open.offsetsNanos();
        int limit = open.maxConcurrency() > 0 ? open.maxConcurrency() : Integer.MAX_VALUE;
        for (int i = 0; i < maxRequests && !end.stopping(); i++) {
            long target = runStartNanos + offsets[i];
            if (target >= deadlineNanos) {
                break;
            }
            PreparedRequest request = nextRequest();
            if (request == null) {
                break;
            }
            // Wake a little early and hand the request to its event loop's timer, which sends it
            // at the target: one wake-up at the send instead of two.
            Launcher.waitUntil(target - Launcher.HAND_OVER_LEAD_NANOS, end.sending());
            if (end.stopping()) {
                break;
            }
            boolean sendNow;
            synchronized (gate) {
                dispatched++;
                sendNow = slotsInUse < limit;
                if (sendNow) {
                    slotsInUse++;
                } else {
                    waiting.add(new Pending(request, target));
                }
            }
            if (sendNow) {
                send(request, target, target);
            }
        }
    }

    /** The next prepared request, waiting for preparation if it lags; null once the feed has ended or the run stops. */
    private PreparedRequest nextRequest() {
        while (!end.stopping()) {
            PreparedRequest next = requests.poll();
            if (next != null || requests.ended()) {
                return next;
            }
            requests.awaitAvailable(Long.MAX_VALUE);
        }
        return null;
    }

    /**
     * Ids and warm-up go by the request's index in the whole run, so that the segments of a run
     * spread over hosts name and warm up the same requests as one host would.
     *
     * @param startNanos when the request should go out: now, or its target time a moment ahead
     */
    private void send(PreparedRequest request, long intendedNanos, long startNanos) {
        long index = request.facts().index();
        launcher.send(
                request,
                launcher.requestId(index),
                launcher.isWarmup(index, intendedNanos),
                intendedNanos,
                startNanos,
                whenFinished);
    }

    /** On the request's event loop, once the recorder has it: free its slot for the next request. */
    private void onFinished(FinishedRequest request) {
        Pending next = null;
        PreparedRequest later = null;
        long backoffNanos = 0;
        boolean closedLoop = plan instanceof LoadPlan.ClosedLoop;
        long now = System.nanoTime();
        synchronized (gate) {
            finished++;
            if (!closedLoop) {
                next = end.stopping() ? null : waiting.poll();
                if (next == null) {
                    slotsInUse--;
                }
            } else {
                backoffNanos = backoffAfter(request);
                later = backoffNanos > 0
                                && !end.stopping()
                                && dispatched < maxRequests
                                && now + backoffNanos < deadlineNanos
                        ? requests.poll()
                        : null;
                if (later != null) {
                    dispatched++;
                } else {
                    slotsInUse--;
                }
            }
        }
        if (next != null) {
            send(next.request(), next.intendedNanos(), System.nanoTime());
        } else if (later != null) {
            // The slot stays taken; its next request waits on its event loop's timer.
            send(later, now + backoffNanos, now + backoffNanos);
        } else if (closedLoop) {
            fillClosedLoop();
        }
        checkAllFinished();
    }

    /** Under {@link #gate}: how long the closed loop waits before reusing this request's slot. */
    private long backoffAfter(FinishedRequest request) {
        if (!(request.outcome() instanceof Outcome.Failure failure) || failure.failureClass() != FailureClass.CONNECT) {
            connectFailuresInRow = 0;
            return 0;
        }
        connectFailuresInRow++;
        return backoffNanos(connectFailuresInRow);
    }

    /** 50 ms after the first connection failure in a row, doubling to at most 2 s. Pure. */
    static long backoffNanos(int failuresInRow) {
        int doublings = Math.min(failuresInRow - 1, 6);
        return Math.min(BACKOFF_MAX_NANOS, BACKOFF_MIN_NANOS << doublings);
    }

    private void checkAllFinished() {
        synchronized (gate) {
            if (finished == dispatched && waiting.isEmpty() && (doneSending || end.stopping())) {
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
            long index = pending.request().facts().index();
            launcher.neverSent(
                    pending.request(),
                    launcher.requestId(index),
                    launcher.isWarmup(index, pending.intendedNanos()),
                    pending.intendedNanos(),
                    now,
                    "it waited at the concurrency gate when the run ended");
        }
        launcher.cancelInFlight(reason);
        checkAllFinished();
    }
}
