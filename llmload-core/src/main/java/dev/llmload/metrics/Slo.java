package dev.llmload.metrics;

import java.util.Locale;

/**
 * Service-level objectives for goodput (DESIGN.md §3): upper limits in milliseconds on a request's
 * TTFT, TPOT and E2E latency, any subset; a null limit is not checked.
 *
 * <p>A request meets the SLO only if it succeeded and every given limit holds. A limit on a metric
 * the request does not have is a miss: TTFT of a non-streamed request, TPOT of a request with
 * fewer than two output tokens. (vLLM's {@code --goodput} instead counts such a TPOT as 0, a pass;
 * llmload does not pass what it could not measure.)
 */
public record Slo(Double ttftMs, Double tpotMs, Double e2eMs) {

    public Slo {
        if (ttftMs == null && tpotMs == null && e2eMs == null) {
            throw new IllegalArgumentException("an SLO needs at least one limit (ttft, tpot, e2e)");
        }
    }

    /**
     * Parses the {@code --slo} value: comma-separated {@code metric:milliseconds} pairs with
     * metrics {@code ttft}, {@code tpot} and {@code e2e} ({@code e2el}, vLLM's name, is accepted
     * too), e.g. {@code ttft:500,tpot:50,e2e:3000}.
     *
     * @throws IllegalArgumentException with a one-line reason for an unknown or repeated metric,
     *                                  or a limit that is not a positive finite number
     */
    public static Slo parse(String text) {
        Double ttft = null;
        Double tpot = null;
        Double e2e = null;
        for (String part : text.split(",", -1)) {
            String[] pair = part.trim().split(":", -1);
            if (pair.length != 2) {
                throw new IllegalArgumentException("bad --slo '" + text + "': '" + part.trim()
                        + "' is not metric:milliseconds (e.g. ttft:500,tpot:50,e2e:3000)");
            }
            String metric = pair[0].trim().toLowerCase(Locale.ROOT);
            double limit = limit(text, pair[1].trim());
            switch (metric) {
                case "ttft" -> ttft = once(text, metric, ttft, limit);
                case "tpot" -> tpot = once(text, metric, tpot, limit);
                case "e2e", "e2el" -> e2e = once(text, "e2e", e2e, limit);
                default ->
                    throw new IllegalArgumentException(
                            "bad --slo '" + text + "': unknown metric '" + metric + "' (use ttft, tpot, e2e)");
            }
        }
        return new Slo(ttft, tpot, e2e);
    }

    /** Whether a request with these metrics, which succeeded or not, meets every given limit. */
    public boolean isMetBy(boolean succeeded, RequestMetrics metrics) {
        return succeeded
                && holds(ttftMs, metrics.ttftMs())
                && holds(tpotMs, metrics.tpotMs())
                && holds(e2eMs, metrics.e2eMs());
    }

    private static boolean holds(Double limit, Double value) {
        return limit == null || value != null && value <= limit;
    }

    private static double limit(String text, String number) {
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad --slo '" + text + "': '" + number + "' is not a number of ms");
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(
                    "bad --slo '" + text + "': limit " + number + " must be a positive number of ms");
        }
        return value;
    }

    private static Double once(String text, String metric, Double previous, double limit) {
        if (previous != null) {
            throw new IllegalArgumentException("bad --slo '" + text + "': " + metric + " given twice");
        }
        return limit;
    }
}
