package dev.llmload.sim.engine.batching;

import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.Engine;
import dev.llmload.sim.engine.EngineSnapshot;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.engine.TokenSink;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A continuous-batching engine running in real time: a {@link BatchScheduler} driven by one
 * platform thread, {@code llmload-sim-engine}, which owns the scheduler and calls every sink.
 *
 * <p>The thread loops: take the commands other threads left in the inbox (arrivals, cancellations,
 * pauses), begin a step, park until the step's end, end it (emitting its tokens). Step ends are
 * absolute targets: while the engine stays busy, each step starts where the previous one was due
 * to end, not when the thread woke up, so wake-up latency does not accumulate; when the thread
 * falls behind anyway (an overloaded CPU), it runs steps back to back until it catches up and
 * reports how late it is as {@link EngineSnapshot#stepLagSeconds()}. Idle, it parks until a
 * submission wakes it.
 *
 * <p>{@link #submit}, {@link #cancel}, {@link #pause}, {@link #snapshot} and {@link #close} may be
 * called from any thread. Submission is checked at once (400 for too long, 429 for a full queue);
 * cancellations and pauses take effect at the next step boundary.
 */
public final class BatchingEngine implements Engine {

    private sealed interface Command {}

    private record Submit(GenerationRequest request, TokenSink sink) implements Command {}

    private record Cancel(String requestId) implements Command {}

    private record Pause(long untilNanos) implements Command {}

    private final BatchScheduler scheduler;
    private final Queue<Command> inbox = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    /** The engine thread is parked with nothing to do; a submission must wake it. */
    private volatile boolean idle;

    private volatile boolean closed;
    private volatile EngineSnapshot snapshot;

    // Engine thread only.
    private long pausedUntil;
    private double stepLagSeconds;

    private BatchingEngine(BatchingEngineConfig config) {
        scheduler = new BatchScheduler(config);
        snapshot = scheduler.snapshot(0);
        thread = new Thread(this::run, "llmload-sim-engine");
        thread.setDaemon(true);
    }

    /** Creates the engine and starts its thread. */
    public static BatchingEngine start(BatchingEngineConfig config) {
        BatchingEngine engine = new BatchingEngine(config);
        engine.thread.start();
        return engine;
    }

    @Override
    public Admission submit(GenerationRequest request, TokenSink sink) {
        if (closed) {
            return new Admission.Rejected(503, "ServiceUnavailableError", "The engine is shutting down.", null);
        }
        Admission admission = scheduler.reserve(request);
        if (admission instanceof Admission.Accepted) {
            send(new Submit(request, sink));
        }
        return admission;
    }

    @Override
    public void cancel(String requestId) {
        send(new Cancel(requestId));
    }

    @Override
    public void pause(Duration duration) {
        send(new Pause(System.nanoTime() + duration.toNanos()));
    }

    /** The state as of the last step boundary (at most one step old). */
    @Override
    public EngineSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void send(Command command) {
        inbox.add(command);
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        long nextStart = 0;
        boolean onSchedule = false; // the previous step just ended: the next one starts at its end target
        pausedUntil = System.nanoTime(); // nanoTime values compare only by difference, so no 0 default
        try {
            while (!closed) {
                // The clock is read after the inbox is drained: every request taken was handed over
                // before this reading, so none is scheduled at a time before its own hand-over, even
                // where the thread lost its core between the two (a negative engine_queue_ms in the
                // ground truth on an overloaded host).
                OptionalLong lastHandOver = drainInbox();
                long now = System.nanoTime();
                if (pausedUntil - now > 0) {
                    snapshot = scheduler.snapshot(stepLagSeconds);
                    parkUntil(pausedUntil);
                    onSchedule = false;
                    continue;
                }
                if (!scheduler.hasWork()) {
                    stepLagSeconds = 0;
                    snapshot = scheduler.snapshot(0);
                    idle = true;
                    if (inbox.isEmpty() && !closed) {
                        LockSupport.park(this);
                    }
                    idle = false;
                    onSchedule = false;
                    continue;
                }
                // On schedule, a step starts where the previous one was due to end; a request handed
                // over after that instant cannot have joined it there, so the step starts now instead.
                boolean arrivedSinceDue = lastHandOver.isPresent() && lastHandOver.getAsLong() - nextStart > 0;
                long start = onSchedule && !arrivedSinceDue ? nextStart : now;
                long duration = scheduler.beginStep(now);
                if (duration == 0) {
                    onSchedule = false;
                    continue;
                }
                long target = start + duration;
                parkUntil(target);
                long end = System.nanoTime();
                stepLagSeconds = Math.max(0, end - target) / 1e9;
                scheduler.countStep();
                // Before the tokens go out: a scrape never counts fewer than the clients hold.
                snapshot = scheduler.snapshot(stepLagSeconds);
                scheduler.deliverStep(end);
                nextStart = target;
                onSchedule = true;
                // Again after: what the step finished no longer runs.
                snapshot = scheduler.snapshot(stepLagSeconds);
            }
        } finally {
            drainInbox();
            long now = System.nanoTime();
            scheduler.abortAll(now);
            snapshot = scheduler.snapshot(0);
        }
    }

    /** Takes every command left in the inbox; returns the latest hand-over time among the submissions. */
    private OptionalLong drainInbox() {
        OptionalLong lastHandOver = OptionalLong.empty();
        for (Command c; (c = inbox.poll()) != null; ) {
            switch (c) {
                case Submit s -> {
                    scheduler.enqueue(s.request(), s.sink());
                    long handOver = s.request().arrivalNanos();
                    if (lastHandOver.isEmpty() || handOver - lastHandOver.getAsLong() > 0) {
                        lastHandOver = OptionalLong.of(handOver);
                    }
                }
                case Cancel k -> scheduler.cancel(k.requestId(), System.nanoTime());
                case Pause p -> {
                    if (p.untilNanos() - pausedUntil > 0) {
                        pausedUntil = p.untilNanos();
                    }
                }
            }
        }
        return lastHandOver;
    }

    private void parkUntil(long deadline) {
        for (long left; !closed && (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(this, left);
        }
    }
}
