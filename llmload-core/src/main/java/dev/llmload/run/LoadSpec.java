package dev.llmload.run;

/**
 * The load of a run as the user described it (DESIGN.md §5 {@code load}).
 *
 * @param mode           {@code closed} (fixed concurrency) or {@code open} (fixed request rate)
 * @param concurrency    requests in flight, closed loop only
 * @param requestRate    requests per second, open loop only
 * @param arrival        {@code poisson}, {@code constant} or {@code gamma}, open loop only
 * @param burstiness     gamma shape K (1 = Poisson), open loop only
 * @param maxConcurrency gate on requests in flight in the open loop; null for none
 */
public record LoadSpec(String mode, Integer concurrency, Double requestRate, String arrival, Double burstiness,
                       Integer maxConcurrency) {

    public static LoadSpec closed(int concurrency) {
        return new LoadSpec("closed", concurrency, null, null, null, null);
    }

    public static LoadSpec open(double rate, String arrival, Double burstiness, Integer maxConcurrency) {
        return new LoadSpec("open", null, rate, arrival, burstiness, maxConcurrency);
    }

    public boolean isOpen() {
        return mode.equals("open");
    }

    /** A short label for directory names and headers, e.g. {@code c8} or {@code r20}. */
    public String label() {
        if (isOpen()) {
            double rate = requestRate;
            return "r" + (rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate));
        }
        return "c" + concurrency;
    }
}
