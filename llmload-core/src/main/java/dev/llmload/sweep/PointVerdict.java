package dev.llmload.sweep;

import dev.llmload.analysis.Saturation;
import dev.llmload.compare.Repeats;
import dev.llmload.metrics.PercentileSlo;
import dev.llmload.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether one sweep point met the sweep's SLO, and how far that call can be trusted. A saturated
 * point (the server served less than was offered and its backlog grew, see {@link Saturation})
 * fails whatever its percentiles say: they measure how long the run was, not the server. A point
 * run K times ({@code --repeat K}) is judged on each limit's mean across its runs, and its pass is
 * <em>confirmed</em> only when each limit's interval of the mean ({@link Repeats#across}) lies
 * within the limit: a mean just under the SLO with runs that scatter across it is a coin toss, not
 * a capacity. Pure.
 *
 * @param passed        no SLO limit missed (by the mean, with repeats) and not saturated
 * @param limiting      {@link #SATURATION} when saturated, else the first limit missed in {@code --slo}
 *                      order; null when it passed
 * @param violations    for people: saturation first, then each limit missed ({@code p99_ttft 1234 > 1000})
 * @param lowConfidence the percentile limits whose value rests on too few samples to be trusted (in any run)
 * @param tooShort      an open loop whose arrival window was shorter than {@link Saturation#neededWindowS}
 *                      (in any run): too short to tell saturation from a server keeping up
 * @param confirmed     null for a single run or without an SLO; else true when it passed and every
 *                      limit's interval across the runs lies within the limit
 * @param unconfirmed   for people, each limit whose interval reaches beyond it although its mean passed
 * @param unconfirmedBy the first of those limits' key; null when none
 * @param intervals     each SLO limit's values across the runs, with their mean and interval, in {@code --slo} order
 */
record PointVerdict(
        boolean passed,
        String limiting,
        List<String> violations,
        List<String> lowConfidence,
        boolean tooShort,
        Boolean confirmed,
        List<String> unconfirmed,
        String unconfirmedBy,
        List<Repeats.Metric> intervals) {

    /** The limiting metric of a saturated point. */
    static final String SATURATION = CapacitySearch.SATURATION;

    static PointVerdict of(RunReport report, PercentileSlo slo) {
        return of(List.of(report), slo);
    }

    /** The verdict on the runs of one point: one, or its repeats. */
    static PointVerdict of(List<RunReport> reports, PercentileSlo slo) {
        String saturation = reports.stream()
                .map(RunReport::saturation)
                .filter(s -> s != null && Boolean.TRUE.equals(s.saturated()))
                .findFirst()
                .map(s -> String.format(
                        Locale.ROOT,
                        "saturation: achieved %.2f of %.2f req/s scheduled, %d unfinished "
                                + "at the last arrival (a server keeping up: %.1f)",
                        s.achievedRequestRate(),
                        s.scheduledRequestRate(),
                        s.backlog(),
                        s.steadyBacklog()))
                .orElse(null);
        List<String> lowConfidence = new ArrayList<>();
        List<Repeats.Metric> values = new ArrayList<>();
        if (slo != null) {
            for (PercentileSlo.Limit limit : slo.limits()) {
                values.add(Repeats.across(
                        limit.key(),
                        reports.stream().map(r -> limit.valueIn(r.results())).toList()));
                if (reports.stream().anyMatch(r -> limit.isLowConfidenceIn(r.results()))) {
                    lowConfidence.add(limit.key());
                }
            }
        }
        boolean tooShort = reports.stream()
                .anyMatch(r -> r.saturation() != null && r.saturation().tooShort());
        return judge(saturation, slo, values, reports.size(), lowConfidence, tooShort);
    }

    /**
     * The verdict from what was measured.
     *
     * @param saturation a saturated run's description, null when no run was saturated
     * @param values     one per limit of {@code slo}, in its order: the limit's value in each run, with
     *                   their mean and interval ({@link Repeats#across}); empty without an SLO
     * @param runs       how many runs the point had
     */
    static PointVerdict judge(
            String saturation,
            PercentileSlo slo,
            List<Repeats.Metric> values,
            int runs,
            List<String> lowConfidence,
            boolean tooShort) {
        List<String> violations = new ArrayList<>();
        String limiting = null;
        if (saturation != null) {
            limiting = SATURATION;
            violations.add(saturation);
        }
        List<String> unconfirmed = new ArrayList<>();
        String unconfirmedBy = null;
        if (slo != null) {
            for (int i = 0; i < slo.limits().size(); i++) {
                PercentileSlo.Limit limit = slo.limits().get(i);
                Repeats.Metric value = values.get(i);
                if (value.mean() == null || value.mean() > limit.max()) {
                    if (limiting == null) {
                        limiting = limit.key();
                    }
                    violations.add(new PercentileSlo.Violation(limit.key(), limit.max(), value.mean()).toString());
                } else if (runs > 1 && (value.ciHigh() == null || value.ciHigh() > limit.max())) {
                    unconfirmedBy = unconfirmedBy == null ? limit.key() : unconfirmedBy;
                    unconfirmed.add(
                            value.ciHigh() == null
                                    ? limit.key() + " measured in fewer than 2 of " + runs + " runs: no interval"
                                    : String.format(
                                            Locale.ROOT,
                                            "%s mean %s meets %s, but its %s%% interval reaches %s",
                                            limit.key(),
                                            PercentileSlo.format(value.mean()),
                                            PercentileSlo.format(limit.max()),
                                            PercentileSlo.format(Repeats.CONFIDENCE * 100),
                                            PercentileSlo.format(value.ciHigh())));
                }
            }
        }
        boolean passed = limiting == null;
        Boolean confirmed = slo == null || runs < 2 ? null : passed && unconfirmed.isEmpty();
        return new PointVerdict(
                passed,
                limiting,
                List.copyOf(violations),
                List.copyOf(lowConfidence),
                tooShort && !SATURATION.equals(limiting),
                confirmed,
                passed ? List.copyOf(unconfirmed) : List.of(),
                passed ? unconfirmedBy : null,
                List.copyOf(values));
    }

    /** What a capacity search counts as a pass: passed, and confirmed when the point was repeated. */
    boolean confirmedPass() {
        return passed && !Boolean.FALSE.equals(confirmed);
    }

    /** What a capacity search names as limiting this point: the limit missed, else the one left unconfirmed. */
    String searchLimiting() {
        return passed ? unconfirmedBy : limiting;
    }
}
