package dev.llmload.sweep;

import dev.llmload.analysis.Saturation;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether one sweep point met the sweep's SLO, and how far that call can be trusted. A saturated
 * point (the server served less than was offered and its backlog grew, see {@link Saturation})
 * fails whatever its percentiles say: they measure how long the run was, not the server. Pure.
 *
 * @param passed        no SLO limit missed and not saturated
 * @param limiting      {@link #SATURATION} when saturated, else the first limit missed in {@code --slo}
 *                      order; null when it passed
 * @param violations    for people: saturation first, then each limit missed ({@code p99_ttft 1234 > 1000})
 * @param lowConfidence the percentile limits whose value rests on too few samples to be trusted
 * @param tooShort      an open loop whose arrival window was shorter than {@link Saturation#neededWindowS}:
 *                      too short to tell saturation from a server keeping up
 */
record PointVerdict(boolean passed, String limiting, List<String> violations, List<String> lowConfidence,
                    boolean tooShort) {

    /** The limiting metric of a saturated point. */
    static final String SATURATION = CapacitySearch.SATURATION;

    static PointVerdict of(RunReport report, PercentileSlo slo) {
        Saturation saturation = report.saturation();
        List<String> violations = new ArrayList<>();
        String limiting = null;
        if (saturation != null && Boolean.TRUE.equals(saturation.saturated())) {
            limiting = SATURATION;
            violations.add(String.format(Locale.ROOT, "saturation: achieved %.2f of %.2f req/s scheduled, %d unfinished "
                    + "at the last arrival (a server keeping up: %.1f)", saturation.achievedRequestRate(),
                    saturation.scheduledRequestRate(), saturation.backlog(), saturation.steadyBacklog()));
        }
        List<String> lowConfidence = new ArrayList<>();
        if (slo != null) {
            List<PercentileSlo.Violation> missed = slo.violations(report.results());
            if (limiting == null && !missed.isEmpty()) {
                limiting = missed.getFirst().key();
            }
            missed.forEach(v -> violations.add(v.toString()));
            slo.limits().stream().filter(l -> l.isLowConfidenceIn(report.results()))
                    .forEach(l -> lowConfidence.add(l.key()));
        }
        return new PointVerdict(limiting == null, limiting, List.copyOf(violations), List.copyOf(lowConfidence),
                saturation != null && saturation.tooShort() && !SATURATION.equals(limiting));
    }
}
