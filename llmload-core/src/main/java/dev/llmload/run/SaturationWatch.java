package dev.llmload.run;

import dev.llmload.analysis.Saturation;
import dev.llmload.note.Note;
import dev.llmload.record.RequestRecord;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code --stop-on-saturation}: follows an open loop's completions as they are recorded and stops
 * the sending once saturation is certain, so a run at a load the server cannot take does not
 * spend its whole schedule proving it. The rule is the one of {@link Saturation}, applied live
 * and with a margin: once the arrivals so far span {@link Saturation#MIN_WINDOW_LATENCIES} start
 * latencies (the median latency, intended send to end, of the first {@link Saturation#startSample}
 * measured requests to finish), the backlog at a completion (requests scheduled by then less requests
 * finished) must exceed {@link #CERTAINTY} times the allowance of {@link Saturation#allowance}.
 *
 * <p>Owned by the recorder thread, which calls {@link #accept} for each finished request; the
 * stop it calls may be called from any thread.
 */
final class SaturationWatch implements Consumer<RequestRecord> {

    /** Twice the backlog that marks a finished run saturated: certain, not merely likely. */
    static final double CERTAINTY = 2;

    private final long[] offsetsNanos;
    private final int warmup;
    private final Runnable stop;
    private final double[] startLatenciesS;
    private int startSamples;
    private long finished;
    private volatile Note note;

    /**
     * @param offsetsNanos the open loop's intended send offsets from the run's start, ascending
     * @param warmup       how many of them are warm-up requests
     * @param stop         ends the sending; called at most once
     */
    SaturationWatch(long[] offsetsNanos, int warmup, Runnable stop) {
        this.offsetsNanos = offsetsNanos;
        this.warmup = Math.min(warmup, offsetsNanos.length);
        this.stop = stop;
        int measured = offsetsNanos.length - this.warmup;
        this.startLatenciesS = new double[measured < 1 ? 0 : Saturation.startSample(measured)];
    }

    /** The note saying the run was stopped, with its figures; null while it was not. */
    Note note() {
        return note;
    }

    @Override
    public void accept(RequestRecord record) {
        finished++;
        if (note != null || startLatenciesS.length == 0) {
            return;
        }
        if (!record.warmup() && startSamples < startLatenciesS.length) {
            startLatenciesS[startSamples++] =
                    (record.timings().endNanos() - record.timings().intendedSendNanos()) / 1e9;
        }
        if (startSamples < startLatenciesS.length) {
            return;
        }
        double[] sorted = startLatenciesS.clone();
        Arrays.sort(sorted);
        double startLatencyS = sorted[sorted.length / 2];
        long now = record.timings().endNanos();
        long first = offsetsNanos[warmup];
        double windowS = (now - first) / 1e9;
        long arrived = countAtOrBelow(now);
        if (windowS < Saturation.MIN_WINDOW_LATENCIES * startLatencyS || arrived >= offsetsNanos.length) {
            return;
        }
        double rate = (arrived - warmup) / windowS;
        double steady = rate * startLatencyS;
        long backlog = arrived - finished;
        if (backlog > CERTAINTY * Saturation.allowance(steady)) {
            note = new Note(
                    "stopped_on_saturation",
                    String.format(
                            Locale.ROOT,
                            "--stop-on-saturation ended the arrivals %.1f s into the measured phase: %d requests were "
                                    + "unfinished where a server keeping up would hold about %.1f (its starting latency %.3f s × "
                                    + "%.2f req/s scheduled); %d scheduled requests were not sent",
                            windowS,
                            backlog,
                            steady,
                            startLatencyS,
                            rate,
                            offsetsNanos.length - arrived));
            stop.run();
        }
    }

    private long countAtOrBelow(long t) {
        int index = Arrays.binarySearch(offsetsNanos, t);
        if (index < 0) {
            return -index - 1;
        }
        while (index + 1 < offsetsNanos.length && offsetsNanos[index + 1] == t) {
            index++;
        }
        return index + 1;
    }
}
