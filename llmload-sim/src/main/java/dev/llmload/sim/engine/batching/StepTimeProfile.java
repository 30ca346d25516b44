package dev.llmload.sim.engine.batching;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The shipped step-time models, each a formula with a named default coefficient set. Every
 * coefficient can be overridden by name ({@link #model(Map)}); the sources of the defaults are in
 * {@code docs/simulator.md}, "Engine model".
 */
public enum StepTimeProfile {

    /**
     * NVIDIA Dynamo mocker's built-in polynomial fit ({@code lib/mocker} perf model), an H100,
     * 8B-class shape: 1k-token prefill ≈ 32 ms, decode step 5.7 ms (empty cache) to 34 ms (full).
     */
    DYNAMO(
            "dynamo",
            StepTimeModel.Polynomial::of,
            coefficients(
                    "prefill_a", 4.209989e-7,
                    "prefill_b", 1.518344e-2,
                    "prefill_c", 16.50142,
                    "decode_a", -25.74,
                    "decode_b", 54.01,
                    "decode_c", 5.74,
                    "decode_min_ms", 1.0)),

    /**
     * Roofline for Llama-3.1-8B in BF16 on one H100 SXM. Model size and KV bytes per token follow
     * from the model's config (32 layers, 8 KV heads of 128); peak bandwidth and FLOPS are the
     * H100 SXM datasheet values (also BLIS's bundled hardware file); the overheads are BLIS's
     * trained per-layer, per-step and per-request terms. The two efficiencies are assumptions.
     */
    H100_LLAMA3_8B(
            "h100-llama3-8b",
            StepTimeModel.Roofline::of,
            coefficients(
                    "step_overhead_ms", 1.15,
                    "per_sequence_ms", 0.004,
                    "parameters", 8.03e9,
                    "weight_bytes", 16.06e9,
                    "kv_bytes_per_token", 131072.0,
                    "memory_bandwidth", 3.35e12,
                    "bandwidth_efficiency", 0.75,
                    "peak_flops", 989.5e12,
                    "mfu", 0.5)),

    /**
     * The linear model that {@code llmload fit} estimates; its defaults are a rough 8B-class
     * server on one H100 (decode step 6 ms alone, 1k-token prefill about 21 ms), to be replaced by
     * a fitted profile's coefficients.
     */
    LINEAR(
            "linear",
            StepTimeModel.Linear::of,
            coefficients(
                    "step_ms", 5.5,
                    "per_sequence_ms", 0.02,
                    "context_ms_per_1k_tokens", 0.1,
                    "prefill_ms_per_token", 0.015,
                    "prefill_ms_per_token_sq", 4e-7));

    private final String id;
    private final Function<Map<String, Double>, StepTimeModel> factory;
    private final Map<String, Double> defaults;

    StepTimeProfile(String id, Function<Map<String, Double>, StepTimeModel> factory, Map<String, Double> defaults) {
        this.id = id;
        this.factory = factory;
        this.defaults = defaults;
    }

    /** The name used in configuration and on the command line. */
    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static StepTimeProfile of(String id) {
        for (StepTimeProfile p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown step-time profile '" + id + "'; known: "
                + Arrays.stream(values()).map(StepTimeProfile::id).toList());
    }

    /** This profile's model with some coefficients replaced; unknown names are rejected. */
    public StepTimeModel model(Map<String, Double> overrides) {
        Map<String, Double> merged = new LinkedHashMap<>(defaults);
        overrides.forEach((name, value) -> {
            if (!defaults.containsKey(name)) {
                throw new IllegalArgumentException("profile '" + id + "' has no coefficient '" + name
                        + "'; its coefficients: " + new TreeSet<>(defaults.keySet()));
            }
            if (value == null || !Double.isFinite(value)) {
                throw new IllegalArgumentException("coefficient '" + name + "' must be a finite number");
            }
            merged.put(name, value);
        });
        return factory.apply(merged);
    }

    private static Map<String, Double> coefficients(Object... namesAndValues) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], (Double) namesAndValues[i + 1]);
        }
        return m;
    }
}
