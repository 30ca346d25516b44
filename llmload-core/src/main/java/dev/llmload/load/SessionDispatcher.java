package dev.llmload.load;

import dev.llmload.http.HttpExchangeRequest;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.record.Outcome;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.session.Session;
import dev.llmload.workload.session.SessionSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Sends multi-turn sessions: sessions start at the open-loop schedule's times (each offset starts
 * one session) or, in a closed loop, whenever fewer than the target are in flight; each later turn
 * is sent once the previous answer has ended plus the session's think time, and carries the whole
 * history with the answer as the client received it. A failed turn ends its session: there is no
 * answer to build on.
 *
 * <p>The thread that calls {@link #run} (the dispatcher thread) owns every session, the timer
 * queue of due turns and all counters; I/O threads only hand finished requests over through a
 * queue and wake it. Building a turn (prompt and JSON) happens on that thread too, so a next
 * turn is prepared as soon as its previous answer arrives, during the think time; the first turn
 * of the next session is prepared while the thread waits for that session's start.
 *
 * <p>Bounds: {@code maxRequests} counts requests (turns); a session starts only while the turns
 * of the sessions started so far are fewer, and a turn beyond it is not sent (the last session
 * may end early). Nothing is sent at or after the deadline. When the run stops, due turns are
 * dropped (they were never scheduled), and session starts that waited for a slot are recorded
 * as cancelled, like requests that waited at the {@link Dispatcher}'s gate.
 */
public final class SessionDispatcher implements Sender {

    /** Parking is accurate to tens of microseconds; the last stretch before a send is spun. */
    private static final long SPIN_NANOS = 100_000;

    private final LoadHttpClient client;
    private final OpenAiCodec codec;
    private final Timeouts timeouts;
    private final SessionSource sessions;
    /** Open loop: session start offsets; null for a closed loop. */
    private final long[] startOffsets;
    /** Sessions in flight at most (a session is in flight from its first send to its end). */
    private final int maxSessions;
    private final long maxRequests;
    private final int warmup;
    private final long warmupEndNanos;
    private final Consumer<FinishedRequest> recorder;
    private final long runStartNanos;
    private final long deadlineNanos;
    private final String requestIdPrefix;

    private final Set<RequestExecution> inFlight = ConcurrentHashMap.newKeySet();
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;
    private volatile long stopRequestedNanos;
    private volatile Thread dispatcherThread;

    // Owned by the dispatcher thread.
    private final PriorityQueue<Turn> due = new PriorityQueue<>(
            Comparator.comparingLong(Turn::intendedNanos).thenComparingLong(t -> t.request().spec().index()));
    /** Open loop: intended start times of sessions waiting for a free session slot. */
    private final ArrayDeque<Long> waitingStarts = new ArrayDeque<>();
    private int nextStart;
    private int activeSessions;
    private long plannedTurns;
    private long sent;
    private Session preparedSession;
    private PreparedRequest preparedFirstTurn;
    private boolean cancelled;

    private record Turn(Session session, PreparedRequest request, long intendedNanos) {}

    private record Completion(Session session, FinishedRequest finished) {}

    /**
     * @param plan        open loop: each offset starts a session, gated by the session plan's
     *                    {@code maxActiveSessions}; closed loop: a fixed concurrency, the sessions kept in flight
     * @param maxRequests the most requests (turns) to send
     * @param duration    send nothing intended after this long (null: no time bound)
     */
    public SessionDispatcher(LoadHttpClient client, OpenAiCodec codec, Timeouts timeouts, LoadPlan plan,
                             SessionSource sessions, long maxRequests, Duration duration, int warmup,
                             Duration warmupTime, Consumer<FinishedRequest> recorder,
                             long runStartNanos, String requestIdPrefix) {
        this.client = client;
        this.codec = codec;
        this.timeouts = timeouts;
        this.sessions = sessions;
        switch (plan) {
            case LoadPlan.OpenLoop open -> {
                this.startOffsets = open.offsetsNanos();
                this.maxSessions = sessions.plan().maxActiveSessions();
            }
            case LoadPlan.ClosedLoop closed -> {
                if (!(closed.concurrency() instanceof ConcurrencyPlan.Fixed fixed)) {
                    throw new IllegalArgumentException("sessions need a fixed number of sessions in flight, "
                            + "not a concurrency profile");
                }
                this.startOffsets = null;
                this.maxSessions = fixed.concurrency();
            }
        }
        this.maxRequests = maxRequests;
        this.warmup = warmup;
        this.warmupEndNanos = warmupTime == null ? runStartNanos : runStartNanos + warmupTime.toNanos();
        this.recorder = recorder;
        this.runStartNanos = runStartNanos;
        this.deadlineNanos = duration == null ? Long.MAX_VALUE : runStartNanos + duration.toNanos();
        this.requestIdPrefix = requestIdPrefix;
    }

    /** Runs every session and returns once all have ended or {@link #stop} ended the run. */
    @Override
    public void run(Duration grace) {
        dispatcherThread = Thread.currentThread();
        while (true) {
            drainCompletions();
            long now = System.nanoTime();
            if (stopping) {
                dropDueTurns();
            } else {
                startSessions(now);
                sendDueTurns(now);
            }
            boolean moreStarts = moreStarts(now);
            if (activeSessions == 0 && !moreStarts) {
                if (!waitingStarts.isEmpty()) {
                    // Only a stop leaves starts waiting with no session running: record them.
                    cancelEverything();
                }
                return;
            }
            long limit = graceLimit(grace);
            if (now >= limit && !cancelled) {
                cancelEverything();
                continue;
            }
            if (moreStarts) {
                prepareNextSession();
            }
            // Once everything is cancelled only the cancelled requests' completions are awaited.
            waitUntil(cancelled ? Long.MAX_VALUE : Math.min(limit, nextWake()));
        }
    }

    /** Stops starting sessions and sending turns; in-flight requests get the grace period. Any thread. */
    @Override
    public void stop() {
        if (stopRequestedNanos == 0) {
            stopRequestedNanos = System.nanoTime();
        }
        stopping = true;
        Thread thread = dispatcherThread;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /** Requests in flight may finish until the grace period after the stop or the deadline. */
    private long graceLimit(Duration grace) {
        long stoppedAt = stopRequestedNanos;
        long base = stoppedAt != 0 ? stoppedAt : deadlineNanos;
        return base == Long.MAX_VALUE ? Long.MAX_VALUE : base + grace.toNanos();
    }

    private boolean moreStarts(long now) {
        if (stopping || plannedTurns >= maxRequests) {
            return false;
        }
        if (startOffsets == null) {
            return now < deadlineNanos;
        }
        return nextStart < startOffsets.length && runStartNanos + startOffsets[nextStart] < deadlineNanos;
    }

    private void startSessions(long now) {
        if (startOffsets == null) {
            while (activeSessions < maxSessions && moreStarts(now)) {
                startSession(-1);
            }
            return;
        }
        while (moreStarts(now) && runStartNanos + startOffsets[nextStart] <= now) {
            long intended = runStartNanos + startOffsets[nextStart++];
            if (activeSessions < maxSessions) {
                startSession(intended);
            } else {
                waitingStarts.add(intended);
            }
        }
    }

    /** @param intendedNanos the scheduled start, or -1 for a closed loop's start now */
    private void startSession(long intendedNanos) {
        prepareNextSession();
        Session session = preparedSession;
        PreparedRequest first = preparedFirstTurn;
        preparedSession = null;
        preparedFirstTurn = null;
        activeSessions++;
        plannedTurns += session.turns();
        long now = System.nanoTime();
        send(session, first, intendedNanos < 0 ? now : intendedNanos, now);
    }

    private void prepareNextSession() {
        if (preparedSession == null) {
            preparedSession = sessions.nextSession();
            RequestSpec spec = preparedSession.firstTurn();
            preparedFirstTurn = new PreparedRequest(spec, codec.encode(spec));
        }
    }

    private void sendDueTurns(long now) {
        while (!due.isEmpty() && due.peek().intendedNanos() <= now) {
            Turn turn = due.poll();
            if (sent < maxRequests && turn.intendedNanos() < deadlineNanos) {
                send(turn.session(), turn.request(), turn.intendedNanos(), System.nanoTime());
            } else {
                endSession();
            }
        }
    }

    private void dropDueTurns() {
        while (!due.isEmpty()) {
            due.poll();
            endSession();
        }
    }

    /** The next session start or due turn, whichever is first; far away when there is neither. */
    private long nextWake() {
        long wake = Long.MAX_VALUE;
        if (!due.isEmpty()) {
            wake = due.peek().intendedNanos();
        }
        long now = System.nanoTime();
        if (moreStarts(now)) {
            long start = startOffsets == null ? now : runStartNanos + startOffsets[nextStart];
            if (startOffsets != null || activeSessions < maxSessions) {
                wake = Math.min(wake, start);
            }
        }
        return wake;
    }

    /** Waits until {@code target}, or until a request finishes or the run is stopped. */
    private void waitUntil(long target) {
        boolean stoppedBefore = stopping;
        long remaining;
        while (completions.isEmpty() && stopping == stoppedBefore && (remaining = target - System.nanoTime()) > 0) {
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private void send(Session session, PreparedRequest request, long intendedNanos, long sentNanos) {
        long index = sent++;
        String requestId = requestIdPrefix + request.spec().index();
        RequestExecution execution = new RequestExecution(request, requestId,
                index < warmup || intendedNanos < warmupEndNanos, intendedNanos, sentNanos, codec, timeouts,
                (done, finished) -> onFinished(session, done, finished));
        inFlight.add(execution);
        execution.started(client.send(new HttpExchangeRequest("POST", codec.path(),
                Map.of("x-request-id", requestId), request.body()), execution));
    }

    /** On an I/O thread: record the request and hand it to the dispatcher thread. */
    private void onFinished(Session session, RequestExecution execution, FinishedRequest finished) {
        inFlight.remove(execution);
        recorder.accept(finished);
        completions.add(new Completion(session, finished));
        Thread thread = dispatcherThread;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /** Schedules each finished turn's successor, or ends its session. */
    private void drainCompletions() {
        Completion completion;
        while ((completion = completions.poll()) != null) {
            Session session = completion.session();
            FinishedRequest finished = completion.finished();
            if (stopping || !(finished.outcome() instanceof Outcome.Success) || !session.hasNextTurn()
                    || sent >= maxRequests) {
                endSession();
                continue;
            }
            long intended = finished.timings().endNanos() + session.thinkTimeBeforeNextTurn().toNanos();
            if (intended >= deadlineNanos) {
                endSession();
                continue;
            }
            RequestSpec next = session.nextTurn(String.join("", finished.tokenEventTexts()));
            due.add(new Turn(session, new PreparedRequest(next, codec.encode(next)), intended));
        }
    }

    /**
     * A session ended: its slot goes to the longest-waiting start (open loop). Starts still waiting
     * once the request budget is planned out were never part of the run, and are dropped.
     */
    private void endSession() {
        activeSessions--;
        if (plannedTurns >= maxRequests) {
            waitingStarts.clear();
        } else if (!stopping && !cancelled && !waitingStarts.isEmpty()) {
            startSession(waitingStarts.poll());
        }
    }

    private void cancelEverything() {
        cancelled = true;
        long now = System.nanoTime();
        for (long intended : List.copyOf(waitingStarts)) {
            prepareNextSession();
            recorder.accept(FinishedRequest.neverSent(preparedFirstTurn, requestIdPrefix + preparedFirstTurn.spec().index(),
                    sent++ < warmup || intended < warmupEndNanos, intended, now,
                    "the session waited for a --max-sessions slot when the run ended"));
            preparedSession = null;
            preparedFirstTurn = null;
        }
        waitingStarts.clear();
        dropDueTurns();
        for (RequestExecution execution : inFlight) {
            execution.cancel("the run ended before the request finished");
        }
    }
}
