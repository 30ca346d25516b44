package dev.llmload.twin.fit;

/**
 * One fitted parameter with its uncertainty.
 *
 * @param name       the simulator's name for it (a coefficient of the {@code linear} step-time
 *                   profile, or {@code maxNumSeqs}, {@code numBlocks})
 * @param value      the estimate
 * @param standardError  bootstrap (or regression) standard error; 0 for a bound read directly
 * @param low95      lower end of the 95% interval
 * @param high95     upper end; {@code Double.POSITIVE_INFINITY} for a lower bound only
 * @param identified whether the runs pin it down (see {@link #why})
 * @param why        for people: where the value came from, or why the runs cannot identify it
 */
public record Estimate(
        String name, double value, double standardError, double low95, double high95, boolean identified, String why) {

    /** The interval's half-width relative to the value; infinite for a bound or a zero value. */
    public double relativeHalfWidth() {
        return value == 0 ? Double.POSITIVE_INFINITY : (high95 - low95) / 2 / Math.abs(value);
    }
}
