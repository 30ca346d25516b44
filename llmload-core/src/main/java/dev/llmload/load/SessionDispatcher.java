package dev.llmload.load;

import dev.llmload.record.Outcome;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.workload.session.Session;
import dev.llmload.workload.session.SessionSupply;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Sends multi-turn sessions: sessions start at the open-loop schedule's times (each offset starts
 * one session) or, in a closed loop, whenever fewer than the target are in flight; each later turn
 * is sent once the previous answer has ended plus the session's think time, and carries the whole
 * history with the answer as the client received it. A failed turn ends its session: there is no
 * answer to build on.
 *
 * <p>Subagents: when a session {@linkplain Session#forks forks} after an answered turn, each fork
 * is sent its first turn after its own pause from that answer's end, runs on its own, and the
 * forking session's next turn waits for the join: the end of the last fork (however it ended),
 * then its own pause. A session with forks in flight has ended only once they all have. Only
 * sessions that were started (roots) take a session slot; their forks run inside it.
 *
 * <p>The thread that calls {@link #run} (the dispatcher thread) owns every session, the timer
 * queue of due turns and all counters; I/O threads only hand finished requests over through a
 * queue and wake it. Building a turn (prompt and JSON) happens on that thread too, so a next
 * turn is prepared as soon as its previous answer arrives, during the think time; the first turn
 * of the next session is prepared while the thread waits for that session's start. A turn or a
 * session start is handed to its event loop's timer a moment before it is due, as the
 * {@link Dispatcher}'s schedule is; sending, the in-flight set and cancelling are the
 * {@code Launcher}'s, and the stop, the grace period and the cancelling at its end the
 * {@link RunEnd}'s, as for every sender.
 *
 * <p>Bounds: {@code maxRequests} counts requests (turns); a session starts only while the turns
 * of the sessions started so far are fewer, and a turn beyond it is not sent (the last session
 * may end early). {@code maxStarts} counts root sessions: a closed loop starts that many and
 * ends when they have ended, an open loop takes that many of its arrivals (a start that waits for
 * a slot is one of them) and leaves the rest unscheduled; forks come with their root and are not
 * counted. Whichever of the two is reached first ends the starts. Nothing is sent at or after the
 * deadline. When the run stops, due turns are dropped (they were never scheduled), and session
 * starts that waited for a slot are recorded as cancelled, like requests that waited at the
 * {@link Dispatcher}'s gate.
 */
final class SessionDispatcher implements Sender {

    private final Launcher launcher;
    private final SessionSupply sessions;
    /** Open loop: session start offsets; null for a closed loop. */
    private final long[] startOffsets;
    /** Sessions in flight at most (a session is in flight from its first send to its end). */
    private final int maxSessions;
    /** Root sessions to start at most ({@code --num-sessions}); {@link Long#MAX_VALUE} for no count. */
    private final long maxStarts;

    private final long maxRequests;
    private final long runStartNanos;
    private final long deadlineNanos;
    private final RunEnd end;

    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();

    // Owned by the dispatcher thread.
    private final PriorityQueue<Turn> due = new PriorityQueue<>(Comparator.comparingLong(Turn::intendedNanos)
            .thenComparingLong(t -> t.request().facts().index()));
    /** Open loop: intended start times of sessions waiting for a free session slot. */
    private final ArrayDeque<Long> waitingStarts = new ArrayDeque<>();
    /** Each running fork's forking session. */
    private final Map<Session, Session> parents = new IdentityHashMap<>();
    /** Each session waiting for its forks to end. */
    private final Map<Session, Join> joins = new IdentityHashMap<>();

    /** Root sessions due so far: the next one's index in {@code startOffsets} (open loop), or those started. */
    private int nextStart;

    private int activeSessions;
    private long plannedTurns;
    private long sent;
    private Session preparedSession;
    private PreparedRequest preparedFirstTurn;

    private record Turn(Session session, PreparedRequest request, long intendedNanos) {}

    private record Completion(Session session, FinishedRequest finished) {}

    /** A session waiting for its forks. Owned by the dispatcher thread. */
    private static final class Join {
        final String answer;
        int pending;
        long lastEndNanos;

        Join(String answer, int pending, long lastEndNanos) {
            this.answer = answer;
            this.pending = pending;
            this.lastEndNanos = lastEndNanos;
        }
    }

    /**
     * @param context its plan, open loop: each offset starts a session, gated by the session
     *                plan's {@code maxActiveSessions}; closed loop: a fixed concurrency, the sessions
     *                kept in flight. Its {@code maxRequests} counts turns.
     * @param maxStarts root sessions to start at most; {@link Long#MAX_VALUE} for no count
     */
    SessionDispatcher(SendContext context, SessionSupply sessions, long maxStarts) {
        this.launcher = context.launcher();
        this.sessions = sessions;
        switch (context.plan()) {
            case LoadPlan.OpenLoop open -> {
                this.startOffsets = open.offsetsNanos();
                this.maxSessions = sessions.maxActiveSessions();
            }
            case LoadPlan.ClosedLoop closed -> {
                if (!(closed.concurrency() instanceof ConcurrencyPlan.Fixed fixed)) {
                    throw new IllegalArgumentException(
                            "sessions need a fixed number of sessions in flight, " + "not a concurrency profile");
                }
                this.startOffsets = null;
                this.maxSessions = fixed.concurrency();
            }
        }
        if (maxStarts < 1) {
            throw new IllegalArgumentException("sessions to start must be at least 1, got " + maxStarts);
        }
        this.maxStarts = maxStarts;
        this.maxRequests = context.maxRequests();
        this.runStartNanos = context.runStartNanos();
        this.deadlineNanos = context.durationEndNanos();
        this.end = new RunEnd(deadlineNanos);
    }

    /** Runs every session and returns once all have ended or {@link #stop} ended the run. */
    @Override
    public void run(Duration grace) {
        end.enter();
        while (true) {
            drainCompletions();
            long now = System.nanoTime();
            if (end.stopping()) {
                dropDueTurns();
            } else {
                startSessions(now);
                sendDueTurns(now);
            }
            boolean moreStarts = moreStarts(now);
            if (activeSessions == 0 && !moreStarts) {
                if (!waitingStarts.isEmpty()) {
                    // Only a stop leaves starts waiting with no session running: record them.
                    end.cancelOnce(this::cancelEverything);
                }
                return;
            }
            long limit = end.graceEndNanos(grace);
            if (now >= limit && end.cancelOnce(this::cancelEverything)) {
                continue;
            }
            if (moreStarts) {
                prepareNextSession();
            }
            // Once everything is cancelled only the cancelled requests' completions are awaited.
            waitUntil(end.cancelled() ? Long.MAX_VALUE : Math.min(limit, nextWake()));
        }
    }

    /** Stops starting sessions and sending turns; in-flight requests get the grace period. Any thread. */
    @Override
    public void stop() {
        end.stop();
    }

    @Override
    public int inFlight() {
        return launcher.inFlight();
    }

    private boolean moreStarts(long now) {
        if (end.stopping() || plannedTurns >= maxRequests || nextStart >= maxStarts) {
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
                nextStart++;
                startSession(-1);
            }
            return;
        }
        long handOver = now + Launcher.HAND_OVER_LEAD_NANOS;
        while (moreStarts(now) && runStartNanos + startOffsets[nextStart] <= handOver) {
            long intended = runStartNanos + startOffsets[nextStart++];
            if (activeSessions < maxSessions) {
                startSession(intended);
            } else {
                waitingStarts.add(intended);
            }
        }
    }

    /**
     * @param intendedNanos the scheduled start (a moment ahead, or past for a start that waited
     *                      for a slot), or -1 for a closed loop's start now
     */
    private void startSession(long intendedNanos) {
        prepareNextSession();
        Session session = preparedSession;
        PreparedRequest first = preparedFirstTurn;
        preparedSession = null;
        preparedFirstTurn = null;
        activeSessions++;
        plannedTurns += session.turns();
        long intended = intendedNanos < 0 ? System.nanoTime() : intendedNanos;
        send(session, first, intended);
    }

    private void prepareNextSession() {
        if (preparedSession == null) {
            preparedSession = sessions.nextSession();
            preparedFirstTurn = launcher.prepare(preparedSession.firstTurn());
        }
    }

    /** Hands over every turn due within the hand-over lead; a turn beyond the run's bounds ends its session. */
    private void sendDueTurns(long now) {
        long handOver = now + Launcher.HAND_OVER_LEAD_NANOS;
        while (!due.isEmpty() && due.peek().intendedNanos() <= handOver) {
            Turn turn = due.poll();
            if (sent < maxRequests && turn.intendedNanos() < deadlineNanos) {
                send(turn.session(), turn.request(), turn.intendedNanos());
            } else {
                endSession(turn.session(), now);
            }
        }
    }

    private void dropDueTurns() {
        long now = System.nanoTime();
        while (!due.isEmpty()) {
            endSession(due.poll().session(), now);
        }
    }

    /**
     * When the next session start or due turn is to be handed over, whichever is first; far away
     * when there is neither.
     */
    private long nextWake() {
        long wake = Long.MAX_VALUE;
        if (!due.isEmpty()) {
            wake = due.peek().intendedNanos() - Launcher.HAND_OVER_LEAD_NANOS;
        }
        long now = System.nanoTime();
        if (moreStarts(now)) {
            long start = startOffsets == null
                    ? now
                    : runStartNanos + startOffsets[nextStart] - Launcher.HAND_OVER_LEAD_NANOS;
            if (startOffsets != null || activeSessions < maxSessions) {
                wake = Math.min(wake, start);
            }
        }
        return wake;
    }

    /** Waits until {@code target}, or until a request finishes or the run is stopped. */
    private void waitUntil(long target) {
        boolean stoppedBefore = end.stopping();
        Launcher.waitUntil(target, () -> completions.isEmpty() && end.stopping() == stoppedBefore);
    }

    /** Sends at its intended time, on its event loop's timer (at once if that time has passed). */
    private void send(Session session, PreparedRequest request, long intendedNanos) {
        long index = sent++;
        launcher.send(
                request,
                launcher.requestId(request.facts().index()),
                launcher.isWarmup(index, intendedNanos),
                intendedNanos,
                intendedNanos,
                finished -> onFinished(session, finished));
    }

    /** On an I/O thread, once the recorder has it: hand the finished turn to the dispatcher thread. */
    private void onFinished(Session session, FinishedRequest finished) {
        completions.add(new Completion(session, finished));
        end.wakeDispatcher();
    }

    /** Schedules each finished turn's forks or successor, or ends its session. */
    private void drainCompletions() {
        Completion completion;
        while ((completion = completions.poll()) != null) {
            Session session = completion.session();
            FinishedRequest finished = completion.finished();
            long endNanos = finished.timings().endNanos();
            if (end.stopping() || !(finished.outcome() instanceof Outcome.Success) || sent >= maxRequests) {
                endSession(session, endNanos);
                continue;
            }
            String answer = finished.tokenEventTexts().whole();
            List<Session> forks = session.forks(answer);
            if (forks.isEmpty()) {
                continueSession(session, answer, endNanos);
                continue;
            }
            joins.put(session, new Join(answer, forks.size(), endNanos));
            for (Session fork : forks) {
                parents.put(fork, session);
                long intended = dueAt(fork, endNanos);
                if (intended >= deadlineNanos) {
                    endSession(fork, endNanos);
                } else {
                    due.add(new Turn(fork, launcher.prepare(fork.firstTurn()), intended));
                }
            }
        }
    }

    /** Schedules the session's next turn after {@code fromNanos} (an answer's end or a join), or ends it. */
    private void continueSession(Session session, String answer, long fromNanos) {
        if (!session.hasNextTurn()) {
            endSession(session, fromNanos);
            return;
        }
        long intended = dueAt(session, fromNanos);
        if (intended >= deadlineNanos) {
            endSession(session, fromNanos);
            return;
        }
        due.add(new Turn(session, launcher.prepare(session.nextTurn(answer)), intended));
    }

    /** When the session's next turn is due: its pause after {@code fromNanos}, and not before its timestamp. */
    private long dueAt(Session session, long fromNanos) {
        long intended = fromNanos + session.thinkTimeBeforeNextTurn().toNanos();
        OptionalLong notBefore = session.nextTurnNotBeforeNanos();
        return notBefore.isPresent() ? Math.max(intended, runStartNanos + notBefore.getAsLong()) : intended;
    }

    /**
     * A session ended at {@code endNanos}. A fork's end counts towards its parent's join, and the
     * last one lets the parent go on (or end, once the run is stopping or its budget is spent). A
     * started session's slot goes to the longest-waiting start (open loop); starts still waiting
     * once the request budget is planned out were never part of the run, and are dropped.
     */
    private void endSession(Session session, long endNanos) {
        Session parent = parents.remove(session);
        if (parent != null) {
            Join join = joins.get(parent);
            join.lastEndNanos = Math.max(join.lastEndNanos, endNanos);
            if (--join.pending == 0) {
                joins.remove(parent);
                if (end.stopping() || end.cancelled() || sent >= maxRequests) {
                    endSession(parent, join.lastEndNanos);
                } else {
                    continueSession(parent, join.answer, join.lastEndNanos);
                }
            }
            return;
        }
        activeSessions--;
        if (plannedTurns >= maxRequests) {
            waitingStarts.clear();
        } else if (!end.stopping() && !end.cancelled() && !waitingStarts.isEmpty()) {
            startSession(waitingStarts.poll());
        }
    }

    /** Through {@link RunEnd#cancelOnce}, which marks the run cancelled first. */
    private void cancelEverything() {
        long now = System.nanoTime();
        for (long intended : List.copyOf(waitingStarts)) {
            prepareNextSession();
            launcher.neverSent(
                    preparedFirstTurn,
                    launcher.requestId(preparedFirstTurn.facts().index()),
                    launcher.isWarmup(sent++, intended),
                    intended,
                    now,
                    "the session waited for a --max-sessions slot when the run ended");
            preparedSession = null;
            preparedFirstTurn = null;
        }
        waitingStarts.clear();
        dropDueTurns();
        launcher.cancelInFlight("the run ended before the request finished");
    }
}
