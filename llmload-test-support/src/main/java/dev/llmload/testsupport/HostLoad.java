package dev.llmload.testsupport;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Assumptions;

/**
 * How busy this machine is, for tests that bound a wall-clock time. A bound of "late by at most
 * a few wake-ups" holds on a quiet machine; where more threads want to run than there are cores,
 * every wake-up may wait for a core, so such a bound is widened by {@link #factor()}. Only the
 * late side is widened: "never early" stays exact, so the checks can still fail.
 *
 * <p>How busy is the larger of two readings. The one-minute load average alone lags: a test that
 * starts when two other processes start sees a quiet machine for its first half minute, and is
 * judged by a quiet machine's bound while it waits for a core. So a sampler thread also reads the
 * kernel's run queue now (the running count in {@code /proc/loadavg}, less the sampler itself)
 * every {@value #SAMPLE_MS} ms, and the mean of the last {@value #WINDOW_SAMPLES} readings (the
 * seconds a timed check takes) counts too. Where {@code /proc/loadavg} is absent, only the load
 * average counts.
 */
public final class HostLoad {

    /** The most a bound is widened: beyond that a late result is a finding, not the machine. */
    private static final double MAX_FACTOR = 4;

    private static final long SAMPLE_MS = 100;

    /** Five seconds of readings: about as long as one timed check of a test. */
    private static final int WINDOW_SAMPLES = 50;

    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private static final Path TASKS = Path.of("/proc/self/task");

    private HostLoad() {}

    /**
     * Runnable threads per core: the larger of the one-minute load average and the recent mean run
     * queue, over the number of cores; 0 where the OS reports neither.
     */
    public static double perCore() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        double recent = RunQueue.INSTANCE.recentMean().orElse(0);
        return Math.max(Math.max(load, 0), recent) / Runtime.getRuntime().availableProcessors();
    }

    /**
     * 1 while the run queue is no longer than the cores; above that 1 + load per core, at most
     * {@value #MAX_FACTOR}.
     */
    public static double factor() {
        return factorOf(perCore());
    }

    /**
     * A lateness bound measured on a quiet machine, widened for this one's load. Where the load
     * asks for more than {@value #MAX_FACTOR} times the bound, no bound on lateness means anything
     * here: the calling test is skipped (a JUnit assumption), with the load as its reason, rather
     * than failed by the machine or passed by a bound too wide to catch anything.
     */
    public static double slackMs(double quietMs) {
        double perCore = perCore();
        Assumptions.assumeTrue(
                1 + perCore <= MAX_FACTOR,
                () -> "a wall-clock bound is not judged at load per core "
                        + "%.1f: it would need more than ×%.0f slack".formatted(perCore, MAX_FACTOR));
        return quietMs * factorOf(perCore);
    }

    /**
     * Runnable threads of other processes per core, the recent mean: how much of the machine is
     * taken by others, whatever this test's own threads do. Above 1, a thread of this process that
     * wakes may wait a scheduler slice (milliseconds) for a core however punctual its own code is;
     * 0 where the OS does not say.
     */
    public static double othersPerCore() {
        return RunQueue.INSTANCE.recentOthersMean().orElse(0)
                / Runtime.getRuntime().availableProcessors();
    }

    /** For assertion messages: {@code load per core 1.3 (others 0.9, slack ×2.3)}. */
    public static String describe() {
        double perCore = perCore();
        return "load per core %.1f (others %.1f, slack ×%.1f)".formatted(perCore, othersPerCore(), factorOf(perCore));
    }

    private static double factorOf(double perCore) {
        return perCore <= 1 ? 1 : Math.min(MAX_FACTOR, 1 + perCore);
    }

    /**
     * The run-queue sampler: a daemon thread started with the first reading, so the window covers
     * the seconds before a test asks. Its first readings are taken at once, a few ms apart, so
     * that the first question is answered from the machine as it is then.
     *
     * <p>Threading: the ring is written by the sampler thread and read by test threads, both under
     * the instance's lock.
     */
    private static final class RunQueue {

        static final RunQueue INSTANCE = new RunQueue();

        private final double[] ring = new double[WINDOW_SAMPLES];
        private final double[] othersRing = new double[WINDOW_SAMPLES];
        private int count;
        private int next;

        private RunQueue() {
            if (!Files.isReadable(LOADAVG)) {
                return;
            }
            for (int i = 0; i < 5; i++) {
                sample();
                sleep(5);
            }
            Thread sampler = new Thread(
                    () -> {
                        while (sleep(SAMPLE_MS)) {
                            sample();
                        }
                    },
                    "host-load-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        synchronized OptionalDouble recentMean() {
            return mean(ring);
        }

        synchronized OptionalDouble recentOthersMean() {
            return mean(othersRing);
        }

        private OptionalDouble mean(double[] values) {
            if (count == 0) {
                return OptionalDouble.empty();
            }
            double sum = 0;
            for (int i = 0; i < count; i++) {
                sum += values[i];
            }
            return OptionalDouble.of(sum / count);
        }

        private void sample() {
            int own = ownRunning();
            int running = readRunning();
            if (running < 0) {
                return;
            }
            synchronized (this) {
                ring[next] = running;
                othersRing[next] = Math.max(0, running - own);
                next = (next + 1) % ring.length;
                count = Math.min(count + 1, ring.length);
            }
        }

        /**
         * The running count of {@code /proc/loadavg} ("0.52 0.58 0.59 3/456 12345") less this
         * reader; -1 where it cannot be read.
         */
        private static int readRunning() {
            try {
                String[] fields = Files.readString(LOADAVG).trim().split("\\s+");
                int slash = fields.length < 4 ? -1 : fields[3].indexOf('/');
                return slash < 0 ? -1 : Math.max(0, Integer.parseInt(fields[3].substring(0, slash)) - 1);
            } catch (IOException | NumberFormatException e) {
                return -1;
            }
        }

        /**
         * This process's threads in state R (running or runnable), less this reader, from each
         * thread's {@code /proc/self/task/TID/stat} (the state follows the name's closing
         * parenthesis); 0 where it cannot be read, so all of the run queue counts as others'.
         */
        private static int ownRunning() {
            int running = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path task : tasks) {
                    try {
                        String stat = Files.readString(task.resolve("stat"));
                        int close = stat.lastIndexOf(')');
                        if (close >= 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'R') {
                            running++;
                        }
                    } catch (IOException threadEnded) {
                        // a thread that ended while the directory was read is not running
                    }
                }
            } catch (IOException e) {
                return 0;
            }
            return Math.max(0, running - 1);
        }

        /** False when interrupted: the sampler then ends. */
        private static boolean sleep(long ms) {
            try {
                Thread.sleep(ms);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
