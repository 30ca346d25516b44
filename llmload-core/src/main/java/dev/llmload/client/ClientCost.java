package dev.llmload.client;

import dev.llmload.note.Note;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * report.json's {@code client} section: what llmload itself cost over the measured phase, and
 * whether that cost may have limited what it measured. Pure arithmetic over a
 * {@link ClientRecording}; docs/report.md defines every field.
 *
 * @param probeIntervalMs    how often each event loop's lateness was sampled
 * @param eventLoops         event loops that carried the load
 * @param availableCores     processors the client's JVM could use
 * @param includesSimulator  the built-in simulator ran in the same process: the CPU figures are
 *                           the two together, and the CPU bound is not applied
 * @param windowS            the measured phase the figures cover (null: nothing was measured, and
 *                           they cover the whole load)
 * @param loopLagMs          how late the event loops served their due instants, pooled over the
 *                           loops: how long a read could have waited to be stamped
 * @param cpuS               the process's CPU time (user + system) over the window
 * @param cpuCores           {@code cpuS} per second of the window: cores in use on average
 * @param cpuBeforeLoadS     the process's CPU time from its start until the load began (JVM
 *                           start-up, data, connections, warm-up)
 * @param wallBeforeLoadS    wall time from the JVM's start until the load began
 * @param cpuBeforeFirstSendS  the process's CPU time from its start until the run sent its first
 *                             request, the uncounted test request (start-up: JVM, command line,
 *                             data, server probe, connections); null when not known
 * @param wallBeforeFirstSendS wall time from the JVM's start until then; null when not known
 * @param gcPauses           stop-the-world collections in the window
 * @param gcPauseTotalMs     their total, in the JVM's whole milliseconds
 * @param gcPauseMaxMs       the longest; null when there was none
 * @param loopLagP99LimitMs  {@link #LOOP_LAG_P99_LIMIT_MS}
 * @param cpuShareLimit      {@link #CPU_SHARE_LIMIT}
 * @param saturated          either bound was passed: the run carries a {@code client_saturated} note
 * @param perSecond          the seconds of the run's time series
 */
public record ClientCost(
        double probeIntervalMs,
        int eventLoops,
        int availableCores,
        boolean includesSimulator,
        Double windowS,
        Summary loopLagMs,
        Double cpuS,
        Double cpuCores,
        Double cpuBeforeLoadS,
        Double wallBeforeLoadS,
        Double cpuBeforeFirstSendS,
        Double wallBeforeFirstSendS,
        long gcPauses,
        long gcPauseTotalMs,
        Long gcPauseMaxMs,
        List<String> collectors,
        double loopLagP99LimitMs,
        double cpuShareLimit,
        boolean saturated,
        List<Second> perSecond) {

    public static final String CLIENT_SATURATED = "client_saturated";
    /**
     * Above this p99 lateness of its event loops, the client's own delay is as large as the
     * precision llmload claims for its inter-token gaps at hundreds of streams.
     */
    public static final double LOOP_LAG_P99_LIMIT_MS = 2.0;
    /** Above this share of its available cores the client competes with itself for CPU. */
    public static final double CPU_SHARE_LIMIT = 0.9;

    private static final double NANOS_PER_SECOND = 1e9;

    public ClientCost {
        collectors = List.copyOf(collectors);
        perSecond = List.copyOf(perSecond);
    }

    /**
     * One second of the run's time series.
     *
     * @param loopLagP99Ms pooled over the loops; null when no due instant fell in the second
     * @param loopLagMaxMs the latest any loop was in the second
     * @param cpuCores     the process's CPU time in the second per second of it
     * @param gcPauseMs    collector pauses that began in the second, whole milliseconds
     */
    public record Second(int second, Double loopLagP99Ms, Double loopLagMaxMs, Double cpuCores, long gcPauseMs) {}

    /**
     * @param windowStartNanos the measured phase's start ({@link System#nanoTime()}); second 0 of
     *                         the series starts here
     * @param windowEndNanos   its end
     * @param seconds          rows of the run's time series
     */
    public static ClientCost summarise(
            ClientRecording recording,
            long windowStartNanos,
            long windowEndNanos,
            int seconds,
            boolean includesSimulator) {
        long from = windowStartNanos - recording.originNanos();
        long to = Math.max(from, windowEndNanos - recording.originNanos());
        double[][] lagBySecond = new double[seconds][];
        int[] perSecondCount = new int[seconds];
        int[] due = recording.lagDueMs();
        int[] lag = recording.lagMicros();
        double[] inWindow = new double[due.length];
        int inWindowCount = 0;
        for (int i = 0; i < due.length; i++) {
            long at = due[i] * 1_000_000L;
            if (at >= from && at <= to) {
                inWindow[inWindowCount++] = lag[i] / 1000.0;
                int k = secondOf(at, from);
                if (k < seconds) {
                    perSecondCount[k]++;
                }
            }
        }
        for (int k = 0; k < seconds; k++) {
            lagBySecond[k] = new double[perSecondCount[k]];
            perSecondCount[k] = 0;
        }
        for (int i = 0; i < due.length; i++) {
            long at = due[i] * 1_000_000L;
            if (at >= from && at <= to) {
                int k = secondOf(at, from);
                if (k < seconds) {
                    lagBySecond[k][perSecondCount[k]++] = lag[i] / 1000.0;
                }
            }
        }
        Summary lagSummary = Statistics.summarize(Arrays.copyOf(inWindow, inWindowCount));

        Double cpuS = cpuBetween(recording, from, to);
        double windowS = (to - from) / NANOS_PER_SECOND;
        Double cpuCores = cpuS == null || windowS <= 0 ? null : cpuS / windowS;

        List<ClientRecording.GcPause> pauses = recording.gcPauses().stream()
                .filter(p -> p.startNanos() >= from && p.startNanos() <= to)
                .toList();
        long[] gcBySecond = new long[seconds];
        for (ClientRecording.GcPause pause : pauses) {
            int k = secondOf(pause.startNanos(), from);
            if (k < seconds) {
                gcBySecond[k] += pause.durationMs();
            }
        }

        List<Second> rows = new ArrayList<>(seconds);
        for (int k = 0; k < seconds; k++) {
            double[] values = lagBySecond[k];
            Arrays.sort(values);
            long secondStart = from + (long) (k * NANOS_PER_SECOND);
            long secondEnd = Math.min(to, secondStart + (long) NANOS_PER_SECOND);
            Double cpu = cpuBetween(recording, secondStart, secondEnd);
            rows.add(new Second(
                    k,
                    values.length == 0 ? null : Statistics.percentile(values, 99),
                    values.length == 0 ? null : values[values.length - 1],
                    cpu == null || secondEnd <= secondStart
                            ? null
                            : cpu / ((secondEnd - secondStart) / NANOS_PER_SECOND),
                    gcBySecond[k]));
        }

        boolean lagPassed = lagSummary.count() > 0 && lagSummary.p99() > LOOP_LAG_P99_LIMIT_MS;
        boolean cpuPassed =
                !includesSimulator && cpuCores != null && cpuCores > CPU_SHARE_LIMIT * recording.availableCores();
        return new ClientCost(
                recording.probePeriodNanos() / 1e6,
                recording.eventLoops(),
                recording.availableCores(),
                includesSimulator,
                windowS,
                lagSummary,
                cpuS,
                cpuCores,
                recording.cpuBeforeNanos() == null ? null : recording.cpuBeforeNanos() / NANOS_PER_SECOND,
                recording.uptimeBeforeMs() / 1000.0,
                recording.firstSend() == null ? null : recording.firstSend().cpuS(),
                recording.firstSend() == null ? null : recording.firstSend().uptimeS(),
                pauses.size(),
                pauses.stream().mapToLong(ClientRecording.GcPause::durationMs).sum(),
                pauses.stream()
                        .map(ClientRecording.GcPause::durationMs)
                        .max(Long::compare)
                        .orElse(null),
                recording.collectors(),
                LOOP_LAG_P99_LIMIT_MS,
                CPU_SHARE_LIMIT,
                lagPassed || cpuPassed,
                rows);
    }

    /** The process's CPU seconds between two times from the origin, interpolated between reads. */
    private static Double cpuBetween(ClientRecording recording, long fromNanos, long toNanos) {
        long[] at = recording.cpuAtNanos();
        if (at.length < 2) {
            return null;
        }
        return (cpuAt(recording, toNanos) - cpuAt(recording, fromNanos)) / NANOS_PER_SECOND;
    }

    /** Cumulative CPU at {@code t}, linear between reads, held at the first and last read outside them. */
    private static double cpuAt(ClientRecording recording, long t) {
        long[] at = recording.cpuAtNanos();
        long[] cpu = recording.cpuNanos();
        if (t <= at[0]) {
            return cpu[0];
        }
        if (t >= at[at.length - 1]) {
            return cpu[cpu.length - 1];
        }
        int i = Arrays.binarySearch(at, t);
        if (i >= 0) {
            return cpu[i];
        }
        int after = -i - 1;
        int before = after - 1;
        double share = (double) (t - at[before]) / (at[after] - at[before]);
        return cpu[before] + share * (cpu[after] - cpu[before]);
    }

    private static int secondOf(long nanos, long from) {
        return (int) ((nanos - from) / (long) NANOS_PER_SECOND);
    }

    /** The {@code client_saturated} note when a bound was passed, naming what it may have inflated. */
    public Optional<Note> note() {
        if (!saturated) {
            return Optional.empty();
        }
        List<String> why = new ArrayList<>();
        if (loopLagMs.count() > 0 && loopLagMs.p99() > loopLagP99LimitMs) {
            why.add(String.format(
                    Locale.ROOT,
                    "its event loops were late by %.2f ms at p99 (bound %.0f ms) and by" + " up to %.1f ms%s",
                    loopLagMs.p99(),
                    loopLagP99LimitMs,
                    loopLagMs.max(),
                    worstSecond()));
        }
        if (!includesSimulator && cpuCores != null && cpuCores > cpuShareLimit * availableCores) {
            why.add(String.format(
                    Locale.ROOT,
                    "it used %.2f of its %d cores (bound %.0f%%)",
                    cpuCores,
                    availableCores,
                    cpuShareLimit * 100));
        }
        return Optional.of(new Note(
                CLIENT_SATURATED,
                "llmload's own client was saturated: " + String.join("; ", why)
                        + "; " + gcText()
                        + ". A response read while a loop was late is stamped late, so TTFT, ITL, TPOT and"
                        + " E2E latency may be inflated by up to that lag, and an open loop's sends (send lag, client queue"
                        + " time) delayed by as much; throughput may be understated. Give the client more cores"
                        + " (--io-threads, a machine of its own) or lower the load."));
    }

    /** One line for the console: the client's cost, and whether it stayed out of the way. */
    public String verdict() {
        String figures = String.format(
                Locale.ROOT,
                "loop lag p99 %s ms, max %s ms; CPU %s of %d cores%s; %s",
                number(loopLagMs.p99()),
                number(loopLagMs.max()),
                number(cpuCores),
                availableCores,
                includesSimulator ? " (with the simulator)" : "",
                gcText());
        return (saturated ? "saturated (see the client_saturated note): " : "kept up, did not limit this run: ")
                + figures;
    }

    private String gcText() {
        return gcPauses == 0
                ? "no collector pauses"
                : gcPauses + " collector pause" + (gcPauses == 1 ? "" : "s") + ", " + gcPauseTotalMs
                        + " ms in all, longest " + gcPauseMaxMs + " ms";
    }

    private String worstSecond() {
        return perSecond.stream()
                .filter(s -> s.loopLagMaxMs() != null)
                .max(java.util.Comparator.comparingDouble(Second::loopLagMaxMs))
                .map(s -> " (in second " + s.second() + ")")
                .orElse("");
    }

    private static String number(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}
