package dev.llmload.run;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The load of a run as the user described it (DESIGN.md §5 {@code load}); {@link Traffic} turns
 * it into a schedule or a concurrency plan.
 *
 * @param mode           {@code closed} (requests in flight) or {@code open} (arrival times)
 * @param concurrency    requests in flight (closed loop), or the first stage of a concurrency profile
 * @param requestRate    requests per second (open loop); for shaped arrivals their first rate
 * @param arrival        open loop: {@code poisson}, {@code constant}, {@code gamma}, {@code ramp},
 *                       {@code stages}, {@code bursts} or {@code trace}
 * @param burstiness     gamma shape K (1 = Poisson)
 * @param maxConcurrency open-loop gate on requests in flight; null for none
 * @param profile        the shape's parameters as written on the command line: {@code FROM:TO:TIME[:exponential]}
 *                       for a ramp, {@code RATE:TIME,...} for stages, {@code BASE:SIZE:PERIOD} for bursts,
 *                       {@code ramp:FROM:TO:TIME} or {@code N:TIME,...} for a closed-loop concurrency profile;
 *                       null for a steady load
 */
public record LoadSpec(String mode, Integer concurrency, Double requestRate, String arrival, Double burstiness,
                       Integer maxConcurrency, String profile) {

    public static LoadSpec closed(int concurrency) {
        return new LoadSpec("closed", concurrency, null, null, null, null, null);
    }

    public static LoadSpec open(double rate, String arrival, Double burstiness, Integer maxConcurrency) {
        return new LoadSpec("open", null, rate, arrival, burstiness, maxConcurrency, null);
    }

    @JsonIgnore
    public boolean isOpen() {
        return mode.equals("open");
    }

    /** A short label for directory names and headers, e.g. {@code c8}, {@code r20} or {@code ramp}. */
    public String label() {
        if (isOpen()) {
            if (requestRate == null || profile != null) {
                return arrival;
            }
            double rate = requestRate;
            return "r" + (rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate));
        }
        return profile == null ? "c" + concurrency : "c-profile";
    }
}
