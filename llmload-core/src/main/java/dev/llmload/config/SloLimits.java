package dev.llmload.config;

import dev.llmload.metrics.PercentileSlo;
import dev.llmload.metrics.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The limits of {@code --slo} as written and as read, the one syntax of {@code llmload run} and
 * {@code llmload sweep}: {@code METRIC:MS} limits each request ({@code ttft:500,tpot:50}, goodput),
 * {@code STAT_METRIC:MS} and {@code error_rate:SHARE} limit the run's distributions
 * ({@code p99_ttft:1000,error_rate:0.01}, what a sweep's points and a capacity search are judged
 * on). One text may hold both kinds.
 *
 * @param text        as written
 * @param slo         the per-request limits; null when only percentile limits were given
 * @param percentiles the limits on the run's distributions; null when only per-request limits were given
 */
public record SloLimits(String text, Slo slo, PercentileSlo percentiles) {

    public SloLimits {
        if (text == null || (slo == null && percentiles == null)) {
            throw new ConfigException("--slo: limits are required");
        }
    }

    /** Per-request limits only, as every earlier version read {@code --slo}. */
    public SloLimits(String text, Slo slo) {
        this(text, slo, null);
    }

    /** Reads both kinds from one text; null stays null. */
    public static SloLimits parse(String text) {
        if (text == null) {
            return null;
        }
        List<String> perRequest = new ArrayList<>();
        List<String> ofTheRun = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            (ofTheRun(part) ? ofTheRun : perRequest).add(part);
        }
        Slo slo = perRequest.isEmpty()
                ? null
                : ConfigException.parsing("--slo", () -> Slo.parse(String.join(",", perRequest)));
        PercentileSlo percentiles = ofTheRun.isEmpty()
                ? null
                : ConfigException.parsing("--slo", () -> PercentileSlo.parse(String.join(",", ofTheRun)));
        return new SloLimits(text, slo, percentiles);
    }

    /** The per-request limits as written, for a run of each point; null when there are none. */
    public String perRequestText() {
        if (slo == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            if (!ofTheRun(part)) {
                parts.add(part.trim());
            }
        }
        return String.join(",", parts);
    }

    /** Whether a limit is on the run's distributions ({@code p99_ttft}, {@code mean_e2e}, {@code error_rate}). */
    private static boolean ofTheRun(String part) {
        String name = part.split(":", -1)[0].trim().toLowerCase(Locale.ROOT);
        return name.equals("error_rate") || name.matches("(mean|p\\d+)_.*");
    }
}
