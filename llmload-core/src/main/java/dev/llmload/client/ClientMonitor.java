package dev.llmload.client;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.netty.channel.EventLoop;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Records, from the start of the load to its end, what the client itself costs: a
 * {@link LoopLagProbe} on every event loop, the process's CPU time every
 * {@link #CPU_SAMPLE_PERIOD_NANOS} on the {@code llmload-client-monitor} thread, and every
 * collector pause the JVM announces. None of it runs on the request path; the probes add one timer
 * task per loop per {@link #LAG_PROBE_PERIOD_NANOS}.
 *
 * <p>Threads: started and stopped by the dispatcher thread; the CPU samples belong to the monitor
 * thread until {@link #stop} has joined it; pauses arrive on the JVM's notification thread into a
 * concurrent queue.
 */
public final class ClientMonitor {

    /** How often each event loop's lateness is sampled: 100 timer tasks per loop per second. */
    public static final long LAG_PROBE_PERIOD_NANOS = 10_000_000;

    static final long CPU_SAMPLE_PERIOD_NANOS = 100_000_000;

    private final long originNanos = System.nanoTime();
    private final long originUptimeMs = ManagementFactory.getRuntimeMXBean().getUptime();
    private final com.sun.management.OperatingSystemMXBean os = operatingSystem();
    private final long cpuBeforeNanos;
    private final ProcessMark firstSend;
    private final List<LoopLagProbe> probes = new ArrayList<>();
    private final ScheduledExecutorService sampler;
    private final ConcurrentLinkedQueue<ClientRecording.GcPause> pauses = new ConcurrentLinkedQueue<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener pauseListener = this::onCollection;
    /** Owned by the sampler thread until it has stopped. */
    private long[] cpuAtNanos = new long[256];

    private long[] cpuNanos = new long[256];
    private int cpuCount;

    private ClientMonitor(List<EventLoop> loops, ProcessMark firstSend) {
        cpuBeforeNanos = processCpuNanos();
        this.firstSend = firstSend;
        for (EventLoop loop : loops) {
            probes.add(LoopLagProbe.start(loop, LAG_PROBE_PERIOD_NANOS, originNanos));
        }
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(pauseListener, null, null);
                emitters.add(emitter);
            }
        }
        sampler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "llmload-client-monitor");
            thread.setDaemon(true);
            return thread;
        });
        sampleCpu();
        sampler.scheduleAtFixedRate(
                this::sampleCpu, CPU_SAMPLE_PERIOD_NANOS, CPU_SAMPLE_PERIOD_NANOS, TimeUnit.NANOSECONDS);
    }

    /** Starts recording now, on {@code loops} (the load's event loops) and for the whole process. */
    public static ClientMonitor start(List<EventLoop> loops) {
        return new ClientMonitor(loops, null);
    }

    /**
     * Starts recording now, as {@link #start(List)}, for a run whose first request went out at
     * {@code firstSend} (null: not known), which the recording carries on.
     */
    public static ClientMonitor start(List<EventLoop> loops, ProcessMark firstSend) {
        return new ClientMonitor(loops, firstSend);
    }

    /**
     * The most lag any event loop had since the last call, ns, for a live view; 0 when none ticked.
     * One caller thread at a time; never waits on a loop.
     */
    public long takeMaxLoopLagNanos() {
        long max = 0;
        for (LoopLagProbe probe : probes) {
            max = Math.max(max, probe.takeMaxLagNanos());
        }
        return max;
    }

    /** The instant the recording's times count from ({@link System#nanoTime()}). */
    public long originNanos() {
        return originNanos;
    }

    /**
     * Stops every probe and sampler and returns what they recorded. Call before the event loops
     * shut down; a loop that has already gone contributes no lag samples.
     */
    public ClientRecording stop() throws InterruptedException {
        List<int[]> dueMs = new ArrayList<>();
        List<int[]> lagMicros = new ArrayList<>();
        for (LoopLagProbe probe : probes) {
            try {
                int[][] samples = probe.stop().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                dueMs.add(samples[0]);
                lagMicros.add(samples[1]);
            } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
                // The loop is gone or stuck: its samples are lost, which the loop count shows.
            }
        }
        sampler.shutdown();
        sampler.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        sampleCpu();
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(pauseListener);
            } catch (ListenerNotFoundException e) {
                // Never added: nothing to remove.
            }
        }
        return new ClientRecording(
                originNanos,
                LAG_PROBE_PERIOD_NANOS,
                probes.size(),
                dueMs.size(),
                Runtime.getRuntime().availableProcessors(),
                concat(dueMs),
                concat(lagMicros),
                Arrays.copyOf(cpuAtNanos, cpuCount),
                Arrays.copyOf(cpuNanos, cpuCount),
                cpuBeforeNanos < 0 ? null : cpuBeforeNanos,
                originUptimeMs,
                List.copyOf(pauses),
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(GarbageCollectorMXBean::getName)
                        .toList(),
                firstSend);
    }

    private static final long STOP_WAIT_SECONDS = 5;

    /** On the sampler thread, and once more on the caller's after it has stopped. */
    private void sampleCpu() {
        long cpu = processCpuNanos();
        if (cpu < 0) {
            return;
        }
        if (cpuCount == cpuAtNanos.length) {
            cpuAtNanos = Arrays.copyOf(cpuAtNanos, cpuCount * 2);
            cpuNanos = Arrays.copyOf(cpuNanos, cpuCount * 2);
        }
        cpuAtNanos[cpuCount] = System.nanoTime() - originNanos;
        cpuNanos[cpuCount] = cpu;
        cpuCount++;
    }

    private long processCpuNanos() {
        return os == null ? -1 : os.getProcessCpuTime();
    }

    private static com.sun.management.OperatingSystemMXBean operatingSystem() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean bean
                ? bean
                : null;
    }

    /**
     * A collection the JVM announces: a pause unless the collector says it ran concurrently (ZGC's
     * and Shenandoah's "Cycles", G1's "Concurrent GC"), whose time the loops did not lose.
     */
    private void onCollection(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        String name = info.getGcName();
        if (name.contains("Cycles") || name.contains("Concurrent")) {
            return;
        }
        long startNanos = (info.getGcInfo().getStartTime() - originUptimeMs) * 1_000_000;
        pauses.add(new ClientRecording.GcPause(startNanos, info.getGcInfo().getDuration(), name));
    }

    private static int[] concat(List<int[]> parts) {
        int[] all = new int[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (int[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
