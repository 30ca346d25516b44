package dev.llmload.compare;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What one {@code --fail-if} limit says of one run against its baseline: every limit gets one,
 * so a gate never passes in silence. Pure.
 *
 * @param run     the run judged (its label)
 * @param limit   the threshold, as written ({@link FailIf.Threshold#toString})
 * @param outcome {@link Outcome#PASS}, {@link Outcome#REGRESSION} or {@link Outcome#NOT_JUDGED}
 * @param detail  the figures behind a pass or a regression; why a limit was not judged
 */
public record Verdict(String run, String limit, Outcome outcome, String detail) {

    /** The three answers a limit can get. */
    public enum Outcome {
        /** The change does not cross the limit (or is not significant). */
        PASS("PASS"),
        /** The whole interval of the change (or, without one, the change) lies past the limit. */
        REGRESSION("REGRESSION"),
        /**
         * The data cannot say: a percentile on fewer samples than it needs, a value one run lacks,
         * a relative limit on a baseline of 0. Fails the gate only with {@code --fail-if-unjudged}.
         */
        NOT_JUDGED("NOT JUDGED");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        /** As printed and written to {@code comparison.json}: {@code PASS}, {@code REGRESSION}, {@code NOT JUDGED}. */
        @JsonValue
        public String text() {
            return text;
        }
    }

    /** The console's line: {@code OUTCOME  run: limit: detail}. */
    public String line() {
        return outcome.text() + "  " + run + ": " + limit + ": " + detail;
    }
}
