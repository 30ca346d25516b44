package dev.llmload.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Hand-made {@link ClientRecording}s whose figures are known, for the rule and the report files. */
public final class Recordings {

    /** The origin of every recording here; the measured window starts at it. */
    public static final long ORIGIN_NANOS = 1_000_000_000L;

    private static final int PERIOD_MS = 10;

    private Recordings() {}

    /**
     * {@code loops} loops probed every 10 ms for {@code seconds}, each instant served {@code lagMicros}
     * late, except that from {@code stallAtMs} one loop stood still for {@code stallMs} (0: never):
     * its instants in that stretch are late by what was left of it, as a {@link LoopLagProbe} records
     * them. The process used {@code cpuCores} cores throughout, read every 100 ms; it had used 4.2 CPU-s
     * in 2.9 s when it sent its first request, 5 CPU-s in 3.2 s when the load began.
     */
    public static ClientRecording of(
            int loops,
            int seconds,
            int lagMicros,
            int stallAtMs,
            int stallMs,
            double cpuCores,
            int availableCores,
            List<ClientRecording.GcPause> pauses) {
        int perLoop = seconds * 1000 / PERIOD_MS;
        int[] due = new int[loops * perLoop];
        int[] lag = new int[loops * perLoop];
        for (int loop = 0; loop < loops; loop++) {
            for (int i = 0; i < perLoop; i++) {
                int at = (i + 1) * PERIOD_MS;
                due[loop * perLoop + i] = at;
                boolean stalled = loop == 0 && stallMs > 0 && at >= stallAtMs && at < stallAtMs + stallMs;
                lag[loop * perLoop + i] = stalled ? (stallAtMs + stallMs - at) * 1000 : lagMicros;
            }
        }
        List<Long> at = new ArrayList<>();
        for (long t = 0; t <= seconds * 1_000_000_000L; t += 100_000_000L) {
            at.add(t);
        }
        long[] cpuAt = at.stream().mapToLong(Long::longValue).toArray();
        long[] cpu = Arrays.stream(cpuAt)
                .map(t -> 5_000_000_000L + (long) (t * cpuCores))
                .toArray();
        return new ClientRecording(
                ORIGIN_NANOS,
                PERIOD_MS * 1_000_000L,
                loops,
                loops,
                availableCores,
                due,
                lag,
                cpuAt,
                cpu,
                5_000_000_000L,
                3_200,
                pauses,
                List.of("G1 Young Generation", "G1 Concurrent GC"),
                new ProcessMark(4_200_000_000L, 2_900));
    }

    /** A clean recording summarised over its whole length, as report fixtures carry it. */
    public static ClientCost cleanCost(int seconds) {
        ClientRecording recording = of(
                2,
                seconds,
                150,
                0,
                0,
                0.4,
                2,
                List.of(new ClientRecording.GcPause(1_500_000_000L, 1, "G1 Young Generation")));
        return ClientCost.summarise(recording, ORIGIN_NANOS, ORIGIN_NANOS + seconds * 1_000_000_000L, seconds, false);
    }
}
