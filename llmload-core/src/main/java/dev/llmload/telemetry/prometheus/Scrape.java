package dev.llmload.telemetry.prometheus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * One parsed exposition: its metric families by name, and how many lines were skipped as
 * unreadable (with the first few, to show in a note). Lookups match family names exactly.
 *
 * @param families     by family name (see {@link MetricFamily} for how counters are named)
 * @param skippedLines lines that were neither a comment, a blank nor a readable sample
 * @param skippedExamples up to {@link PrometheusTextParser#SKIPPED_EXAMPLES} of those lines
 */
public record Scrape(Map<String, MetricFamily> families, int skippedLines, List<String> skippedExamples) {

    public Scrape {
        families = Map.copyOf(families);
        skippedExamples = List.copyOf(skippedExamples);
    }

    public Optional<MetricFamily> family(String name) {
        return Optional.ofNullable(families.get(name));
    }

    public boolean has(String name) {
        return families.containsKey(name);
    }

    /**
     * Sum of the family's value samples over all label sets (e.g. vLLM's data-parallel
     * {@code engine} label), skipping {@code NaN}; empty when the family is absent.
     * A counter's value samples are those named {@code name_total} or {@code name} (TGI's
     * counters carry no suffix).
     */
    public OptionalDouble sum(String name) {
        return sumWhere(name, null, null);
    }

    /** As {@link #sum(String)}, over the samples whose {@code label} equals {@code value}. */
    public OptionalDouble sumWhere(String name, String label, String value) {
        MetricFamily family = families.get(name);
        if (family == null || family.type() == MetricType.HISTOGRAM || family.type() == MetricType.SUMMARY) {
            return OptionalDouble.empty();
        }
        double total = 0;
        boolean any = false;
        for (Sample sample : family.samples()) {
            boolean valueSample = sample.name().equals(name)
                    || (family.type() == MetricType.COUNTER && sample.name().equals(name + "_total"));
            if (valueSample && !Double.isNaN(sample.value()) && (label == null || value.equals(sample.label(label)))) {
                total += sample.value();
                any = true;
            }
        }
        return any ? OptionalDouble.of(total) : OptionalDouble.empty();
    }

    /**
     * The histogram family summed over all label sets, bucket by bucket; empty when the family
     * is absent, not a histogram, or has no {@code +Inf} bucket.
     */
    public Optional<Histogram> histogram(String name) {
        MetricFamily family = families.get(name);
        if (family == null || family.type() != MetricType.HISTOGRAM) {
            return Optional.empty();
        }
        Map<Double, Double> buckets = new TreeMap<>();
        double sum = 0;
        double count = 0;
        for (Sample sample : family.samples()) {
            String suffix = sample.name().substring(name.length());
            switch (suffix) {
                case "_bucket" -> {
                    Double bound = parseBound(sample.label("le"));
                    if (bound != null) {
                        buckets.merge(bound, sample.value(), Double::sum);
                    }
                }
                case "_sum" -> sum += sample.value();
                case "_count" -> count += sample.value();
                default -> {}
            }
        }
        if (!buckets.containsKey(Double.POSITIVE_INFINITY)) {
            return Optional.empty();
        }
        List<Histogram.Bucket> list = new ArrayList<>(buckets.size());
        buckets.forEach((bound, cumulative) -> list.add(new Histogram.Bucket(bound, cumulative)));
        return Optional.of(new Histogram(list, sum, count));
    }

    private static Double parseBound(String le) {
        if (le == null) {
            return null;
        }
        try {
            double bound = PrometheusTextParser.parseValue(le);
            return Double.isNaN(bound) ? null : bound;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }
}
