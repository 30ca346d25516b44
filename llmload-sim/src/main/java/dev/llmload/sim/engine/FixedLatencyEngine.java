package dev.llmload.sim.engine;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The walking skeleton's engine: every request gets its own fixed TTFT and inter-token latency
 * from a {@link FixedLatencyModel}, with no queue and no batch interference.
 *
 * <p>Threading: one thread, {@code sim-fixed-engine}, owns all mutable state (the deadline heap,
 * the active requests, the pause window, the random source) and calls every {@link TokenSink}.
 * Other threads only post commands to a lock-free queue and unpark it, so thousands of
 * concurrent requests cost one heap entry each, not a thread. The thread parks until the next
 * deadline; on Linux that wakes within tens of microseconds, well inside the millisecond
 * precision the timing tests ask for.
 *
 * <p>Time: deadlines live on an engine clock that stands still while the engine is paused, so a
 * pause delays every later token by the pause (as a stalled GPU would) instead of releasing a
 * burst when it ends. Sinks are always given real {@link System#nanoTime()} values.
 *
 * <p>A cancelled request ends with {@link TokenSink#finished} {@link FinishReason#ABORT}.
 */
public final class FixedLatencyEngine implements Engine {

    private static final int BLOCK_SIZE = 16;

    private final FixedLatencyModel model;
    private final int maxModelLen;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    // Written by the engine thread only; volatile so snapshot() may read them from anywhere.
    private volatile int running;
    private volatile long promptTokens;
    private volatile long generationTokens;
    private volatile double stepLagSeconds;

    // Owned by the engine thread.
    private final SplittableRandom random;
    private final PriorityQueue<Active> deadlines = new PriorityQueue<>();
    private final Map<String, Active> active = new HashMap<>();
    private long sequence;
    private long frozenNanos;
    private boolean paused;
    private long pauseStart;
    private long pauseEnd;

    public FixedLatencyEngine(FixedLatencyModel model, int maxModelLen, long seed) {
        this.model = model;
        this.maxModelLen = maxModelLen;
        this.random = new SplittableRandom(seed);
        this.thread = Thread.ofPlatform().name("sim-fixed-engine").daemon().unstarted(this::run);
        thread.start();
    }

    @Override
    public Admission submit(GenerationRequest request, TokenSink sink) {
        long total = (long) request.promptTokens() + request.maxTokens();
        if (total > maxModelLen) {
            return new Admission.Rejected(
                    400,
                    "BadRequestError",
                    "This model's maximum context length is " + maxModelLen + " tokens. However, you requested "
                            + total + " tokens (" + request.promptTokens() + " in the messages, "
                            + request.maxTokens() + " in the completion). Please reduce the length of the "
                            + "messages or completion.",
                    null);
        }
        post(() -> start(request, sink));
        return Admission.ACCEPTED;
    }

    @Override
    public void cancel(String requestId) {
        post(() -> abort(requestId));
    }

    @Override
    public void pause(Duration duration) {
        long nanos = duration.toNanos();
        post(() -> startPause(nanos));
    }

    @Override
    public EngineSnapshot snapshot() {
        return new EngineSnapshot(
                running, 0, 0.0, 0, promptTokens, generationTokens, 0, 0, 0, BLOCK_SIZE, maxModelLen, stepLagSeconds);
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void post(Runnable command) {
        commands.add(command);
        LockSupport.unpark(thread);
    }

    private void run() {
        while (!closed) {
            Runnable command;
            while ((command = commands.poll()) != null) {
                command.run();
            }
            long now = System.nanoTime();
            if (paused) {
                if (now < pauseEnd) {
                    LockSupport.parkNanos(this, pauseEnd - now);
                    continue;
                }
                frozenNanos += pauseEnd - pauseStart;
                paused = false;
            }
            long engineNow = now - frozenNanos;
            Active next;
            while ((next = deadlines.peek()) != null && next.deadline <= engineNow) {
                deadlines.poll();
                if (!next.cancelled) {
                    stepLagSeconds = (engineNow - next.deadline) / 1e9;
                    emit(next, now);
                }
            }
            next = deadlines.peek();
            LockSupport.parkNanos(this, next == null ? Long.MAX_VALUE : next.deadline - engineNow);
        }
    }

    private void start(GenerationRequest request, TokenSink sink) {
        long now = System.nanoTime();
        // A request that arrived during a pause starts its clock when the pause ends.
        long engineNow = (paused ? pauseStart : now) - frozenNanos;
        long arrival = Math.min(request.arrivalNanos() - frozenNanos, engineNow);
        FixedLatencyModel.Plan plan = model.plan(request.maxTokens(), request.minTokens(), request.ignoreEos(), random);
        Active a = new Active(request.requestId(), sink, plan, sequence++);
        a.deadline = arrival + model.ttftNanos(request.promptTokens(), random);
        promptTokens += request.promptTokens();
        // This engine has no queue: a request is scheduled at its hand-over (or when a pause it came
        // in ends), whenever this thread got to it. Stamped with this thread's clock instead, a
        // thread late by the TTFT put the first token 0.1 ms after "scheduling" on a busy host,
        // and a native API's prefill time (llama.cpp's prompt_ms) read as nothing.
        sink.scheduled(paused ? Math.max(now, pauseEnd) : Math.min(request.arrivalNanos(), now));
        if (plan.outputTokens() == 0) {
            sink.finished(plan.reason(), now);
            return;
        }
        active.put(a.requestId, a);
        running = active.size();
        deadlines.add(a);
    }

    private void emit(Active a, long now) {
        a.emitted++;
        generationTokens++;
        a.sink.tokens(1, now);
        if (a.emitted == a.plan.outputTokens()) {
            active.remove(a.requestId);
            running = active.size();
            a.sink.finished(a.plan.reason(), now);
        } else {
            a.deadline += model.itlNanos(random);
            deadlines.add(a);
        }
    }

    private void abort(String requestId) {
        Active a = active.remove(requestId);
        if (a != null) {
            a.cancelled = true;
            running = active.size();
            a.sink.finished(FinishReason.ABORT, System.nanoTime());
        }
    }

    private void startPause(long nanos) {
        long now = System.nanoTime();
        if (paused) {
            pauseEnd = Math.max(pauseEnd, now + nanos);
        } else {
            paused = true;
            pauseStart = now;
            pauseEnd = now + nanos;
        }
    }

    /** One accepted request; owned by the engine thread. */
    private static final class Active implements Comparable<Active> {
        final String requestId;
        final TokenSink sink;
        final FixedLatencyModel.Plan plan;
        final long order;
        long deadline;
        int emitted;
        boolean cancelled;

        Active(String requestId, TokenSink sink, FixedLatencyModel.Plan plan, long order) {
            this.requestId = requestId;
            this.sink = sink;
            this.plan = plan;
            this.order = order;
        }

        @Override
        public int compareTo(Active other) {
            int byDeadline = Long.compare(deadline, other.deadline);
            return byDeadline != 0 ? byDeadline : Long.compare(order, other.order);
        }
    }
}
