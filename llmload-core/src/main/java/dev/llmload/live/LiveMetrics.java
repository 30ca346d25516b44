package dev.llmload.live;

import dev.llmload.client.SchedulingClass;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.stats.DistributionAccumulator;
import dev.llmload.telemetry.ServerReading;
import dev.llmload.telemetry.engine.ServerSignals;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a run has done so far, for watching it while it goes: counters, cumulative histograms for
 * Prometheus, and the last {@link #WINDOW_SECONDS} seconds' rates and percentiles for a person.
 *
 * <p>Threads: {@link #record} runs on the recorder thread ({@code llmload-recorder}) and only puts
 * a compact entry (outcome, output tokens, TTFT, E2E, the inter-token gaps) into a lock-free
 * queue, so the recorder never waits for a watcher. Every other field is owned by the thread
 * {@code llmload-live}, in Linux's batch scheduling class like the recorder: once a second it
 * drains the queue into the counters, the histograms and the current second's distributions,
 * samples the run's {@link Sources} (lock-free reads: the in-flight set's size, the lag probes'
 * maxima, the telemetry's newest reading), and publishes an immutable {@link LiveSnapshot}
 * through a volatile field that any thread reads ({@link #latest}); the listeners (the terminal
 * view) are called on that thread after each tick. No event-loop thread calls into this class.
 */
public final class LiveMetrics {

    /** The sliding window of the rates and percentiles a person reads, seconds. */
    public static final int WINDOW_SECONDS = 10;

    private static final long TICK_NANOS = 1_000_000_000L;
    /** Exact up to this many values a second, then within 1%: plenty for p50 and p99 at a glance. */
    private static final int SECOND_EXACT_CAPACITY = 8192;

    private static final double SECOND_RELATIVE_ERROR = 0.01;

    /** vLLM's TTFT buckets, with finer ones below 5 ms for a fast server. */
    static final double[] TTFT_BOUNDS_SECONDS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40,
        80, 160, 640, 2560
    };
    /** vLLM's ITL buckets, with finer ones below 10 ms. */
    static final double[] ITL_BOUNDS_SECONDS = {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
        20, 40, 80
    };
    /** vLLM's E2E buckets, with finer ones below 300 ms. */
    static final double[] E2E_BOUNDS_SECONDS = {
        0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960,
        1920, 7680
    };

    private static final FailureClass[] CLASSES = FailureClass.values();

    /**
     * What the run lends its watcher, each read lock-free from {@code llmload-live}.
     *
     * @param runStartNanos      the run's clock ({@link System#nanoTime()} at its start)
     * @param inFlight           requests sent and not yet finished
     * @param takeMaxLoopLagNanos the most any event loop ran late since the last call, reset by the call
     * @param server             the server's newest reading, or null
     * @param scheduleNanos      the open loop's send offsets from the run's start, ascending; null for a closed loop
     */
    public record Sources(
            long runStartNanos,
            IntSupplier inFlight,
            LongSupplier takeMaxLoopLagNanos,
            Supplier<ServerReading> server,
            long[] scheduleNanos) {}

    /** One finished request as the recorder hands it over; latencies -1 where not measured. */
    private record Finished(
            boolean warmup, FailureClass failure, long outputTokens, long ttftNanos, long e2eNanos, long[] gapsNanos) {}

    /** One second's share of the window; owned by {@code llmload-live}. */
    private record Second(
            long sent,
            long finished,
            long outputTokens,
            long loopLagMaxNanos,
            DistributionAccumulator ttft,
            DistributionAccumulator itl,
            DistributionAccumulator e2e) {}

    private final ConcurrentLinkedQueue<Finished> handedOver = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Consumer<LiveSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private volatile LiveSnapshot latest;

    // Owned by llmload-live from start() on.
    private ScheduledExecutorService thread;
    private Sources sources;
    private long succeeded;
    private final long[] failed = new long[CLASSES.length];
    private long warmups;
    private long outputTokens;
    private final Cumulative ttft = new Cumulative(TTFT_BOUNDS_SECONDS);
    private final Cumulative itl = new Cumulative(ITL_BOUNDS_SECONDS);
    private final Cumulative e2e = new Cumulative(E2E_BOUNDS_SECONDS);
    /** The window's seconds, oldest first; at most {@link #WINDOW_SECONDS} complete ones. */
    private final ArrayDeque<Second> seconds = new ArrayDeque<>();
    /** Sends and finishes counted at the previous tick, to make each second's share. */
    private long sentBefore;

    private long finishedBefore;
    private long outputTokensBefore;
    private DistributionAccumulator secondTtft = newSecond();
    private DistributionAccumulator secondItl = newSecond();
    private DistributionAccumulator secondE2e = newSecond();

    public LiveMetrics() {
        this.latest = empty();
    }

    /** Hears every snapshot on {@code llmload-live} after it is published; must not block. */
    public void addListener(Consumer<LiveSnapshot> listener) {
        listeners.add(listener);
    }

    /** The newest snapshot (all zeros before the run's clock starts). Any thread. */
    public LiveSnapshot latest() {
        return latest;
    }

    /** Hands one journaled request over; on the recorder thread, never blocks. */
    public void record(RequestRecord record) {
        FailureClass failure = record.outcome() instanceof Outcome.Failure f ? f.failureClass() : null;
        if (record.warmup() || failure != null) {
            handedOver.add(new Finished(record.warmup(), failure, 0, -1, -1, null));
            return;
        }
        RequestMetrics metrics = RequestMetrics.of(record);
        long sent = record.timings().sentNanos();
        long ttftNanos = metrics.ttftMs() == null ? -1 : record.timings().firstTokenNanos() - sent;
        long e2eNanos = metrics.e2eMs() == null
                ? -1
                : (record.streamed()
                                ? record.timings().lastTokenNanos()
                                : record.timings().endNanos())
                        - sent;
        long[] gaps = new long[Math.max(0, record.tokenEventCounts().length - 1)];
        int[] filled = {0};
        RequestMetrics.collectInterTokenLatencies(record, (gapNanos, tokens) -> gaps[filled[0]++] = gapNanos);
        handedOver.add(
                new Finished(false, null, record.outputTokens(), ttftNanos, e2eNanos, Arrays.copyOf(gaps, filled[0])));
    }

    /** Starts ticking once a second on {@code llmload-live}; called once, as the run's clock starts. */
    public synchronized void start(Sources runSources) {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        thread = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("llmload-live").factory());
        thread.execute(() -> {
            SchedulingClass.BATCH.enterCurrentThread();
            sources = runSources;
        });
        thread.scheduleAtFixedRate(() -> tick(false), TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * The last tick, once every request is journaled (the recorder has finished), then the thread
     * ends. Waits for it; a no-op when never started.
     */
    public synchronized void stop() throws InterruptedException {
        if (thread == null || thread.isShutdown()) {
            return;
        }
        try {
            thread.submit(() -> tick(true)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the live view's last tick failed", e.getCause());
        } finally {
            thread.shutdownNow();
        }
    }

    private void tick(boolean last) {
        long now = System.nanoTime();
        for (Finished f; (f = handedOver.poll()) != null; ) {
            add(f);
        }
        int inFlight = last ? 0 : sources.inFlight().getAsInt();
        long finished = finishedTotal();
        long sent = finished + inFlight;
        long lag = sources.takeMaxLoopLagNanos().getAsLong();
        seconds.addLast(new Second(
                sent - sentBefore,
                finished - finishedBefore,
                outputTokens - outputTokensBefore,
                lag,
                secondTtft,
                secondItl,
                secondE2e));
        if (seconds.size() > WINDOW_SECONDS) {
            seconds.removeFirst();
        }
        sentBefore = sent;
        finishedBefore = finished;
        outputTokensBefore = outputTokens;
        secondTtft = newSecond();
        secondItl = newSecond();
        secondE2e = newSecond();
        long elapsed = Math.max(0, now - sources.runStartNanos());
        LiveSnapshot snapshot = new LiveSnapshot(
                elapsed,
                last,
                succeeded,
                failedByClass(),
                warmups,
                inFlight,
                scheduled(sources.scheduleNanos(), elapsed),
                outputTokens,
                ttft.snapshot(),
                itl.snapshot(),
                e2e.snapshot(),
                window(elapsed),
                lag,
                server(sources.server().get(), now));
        latest = snapshot;
        for (Consumer<LiveSnapshot> listener : listeners) {
            listener.accept(snapshot);
        }
    }

    private void add(Finished f) {
        if (f.warmup()) {
            warmups++;
        } else if (f.failure() != null) {
            failed[f.failure().ordinal()]++;
        } else {
            succeeded++;
            outputTokens += f.outputTokens();
            if (f.ttftNanos() >= 0) {
                ttft.add(f.ttftNanos());
                secondTtft.addNanosAsMillis(f.ttftNanos());
            }
            if (f.e2eNanos() >= 0) {
                e2e.add(f.e2eNanos());
                secondE2e.addNanosAsMillis(f.e2eNanos());
            }
            for (long gap : f.gapsNanos()) {
                itl.add(gap);
                secondItl.addNanosAsMillis(gap);
            }
        }
    }

    private long finishedTotal() {
        long total = succeeded + warmups;
        for (long n : failed) {
            total += n;
        }
        return total;
    }

    private Map<FailureClass, Long> failedByClass() {
        Map<FailureClass, Long> byClass = new EnumMap<>(FailureClass.class);
        for (FailureClass c : CLASSES) {
            byClass.put(c, failed[c.ordinal()]);
        }
        return byClass;
    }

    /** Sends the schedule had due by {@code elapsedNanos}; -1 without a schedule. */
    static long scheduled(long[] scheduleNanos, long elapsedNanos) {
        if (scheduleNanos == null) {
            return -1;
        }
        int at = Arrays.binarySearch(scheduleNanos, elapsedNanos);
        if (at < 0) {
            return -(at + 1);
        }
        // Equal offsets: count every one due at that instant.
        while (at + 1 < scheduleNanos.length && scheduleNanos[at + 1] == elapsedNanos) {
            at++;
        }
        return at + 1;
    }

    private LiveSnapshot.Window window(long elapsedNanos) {
        // The window's seconds, or the run's elapsed time while it is shorter.
        double spanS = Math.max(1e-3, Math.min(seconds.size(), elapsedNanos / 1e9));
        DistributionAccumulator windowTtft = newSecond();
        DistributionAccumulator windowItl = newSecond();
        DistributionAccumulator windowE2e = newSecond();
        long sentIn = 0;
        long finishedIn = 0;
        long tokensIn = 0;
        long lagMax = 0;
        for (Second s : seconds) {
            sentIn += s.sent();
            finishedIn += s.finished();
            tokensIn += s.outputTokens();
            lagMax = Math.max(lagMax, s.loopLagMaxNanos());
            windowTtft.merge(s.ttft());
            windowItl.merge(s.itl());
            windowE2e.merge(s.e2e());
        }
        double offered = Double.NaN;
        long[] schedule = sources.scheduleNanos();
        if (schedule != null) {
            long from = Math.max(0, elapsedNanos - (long) (spanS * 1e9));
            offered = (scheduled(schedule, elapsedNanos) - scheduled(schedule, from)) / spanS;
        }
        return new LiveSnapshot.Window(
                WINDOW_SECONDS,
                offered,
                sentIn / spanS,
                finishedIn / spanS,
                tokensIn / spanS,
                quantiles(windowTtft),
                quantiles(windowItl),
                quantiles(windowE2e),
                lagMax);
    }

    private static LiveSnapshot.Quantiles quantiles(DistributionAccumulator values) {
        if (values.count() == 0) {
            return null;
        }
        double[] p = values.percentiles(50, 99);
        return new LiveSnapshot.Quantiles(p[0], p[1], values.count());
    }

    private static LiveSnapshot.Server server(ServerReading reading, long nowNanos) {
        if (reading == null) {
            return LiveSnapshot.Server.NONE;
        }
        ServerSignals signals = reading.signals();
        return new LiveSnapshot.Server(
                signals.kvCacheUsage(),
                signals.requestsWaiting(),
                signals.requestsRunning(),
                Math.max(0, nowNanos - reading.nanos()));
    }

    private static DistributionAccumulator newSecond() {
        return new DistributionAccumulator(SECOND_EXACT_CAPACITY, SECOND_RELATIVE_ERROR);
    }

    private static LiveSnapshot empty() {
        Map<FailureClass, Long> none = new EnumMap<>(FailureClass.class);
        for (FailureClass c : CLASSES) {
            none.put(c, 0L);
        }
        return new LiveSnapshot(
                0,
                false,
                0,
                none,
                0,
                0,
                -1,
                0,
                new Cumulative(TTFT_BOUNDS_SECONDS).snapshot(),
                new Cumulative(ITL_BOUNDS_SECONDS).snapshot(),
                new Cumulative(E2E_BOUNDS_SECONDS).snapshot(),
                new LiveSnapshot.Window(WINDOW_SECONDS, Double.NaN, 0, 0, 0, null, null, null, 0),
                0,
                LiveSnapshot.Server.NONE);
    }

    /** A cumulative histogram with fixed bounds; owned by {@code llmload-live}. */
    private static final class Cumulative {
        private final double[] boundsSeconds;
        private final long[] boundsNanos;
        /** Per bucket (not cumulative), the last one {@code +Inf}. */
        private final long[] counts;

        private long sumNanos;

        Cumulative(double[] boundsSeconds) {
            this.boundsSeconds = boundsSeconds;
            this.boundsNanos = new long[boundsSeconds.length];
            for (int i = 0; i < boundsSeconds.length; i++) {
                boundsNanos[i] = Math.round(boundsSeconds[i] * 1e9);
            }
            this.counts = new long[boundsSeconds.length + 1];
        }

        void add(long nanos) {
            int at = Arrays.binarySearch(boundsNanos, nanos);
            // A value equal to a bound belongs to that bound's bucket (le: less than or equal).
            counts[at >= 0 ? at : -(at + 1)]++;
            sumNanos += nanos;
        }

        LiveSnapshot.Histogram snapshot() {
            long[] cumulative = new long[counts.length];
            long running = 0;
            for (int i = 0; i < counts.length; i++) {
                running += counts[i];
                cumulative[i] = running;
            }
            return new LiveSnapshot.Histogram(boundsSeconds, cumulative, sumNanos / 1e9);
        }
    }
}
