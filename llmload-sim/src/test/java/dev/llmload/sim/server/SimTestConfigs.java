package dev.llmload.sim.server;

import java.util.Map;

/** Small, fast configurations for the tests. */
final class SimTestConfigs {
    private SimTestConfigs() {}

    static SimConfig fast() {
        return with(Map.of());
    }

    /** The fixed-latency engine with fast latencies (5 ms TTFT, 1 ms ITL), {@code overrides} on top. */
    static SimConfig with(Map<String, ?> overrides) {
        var all = new java.util.HashMap<String, Object>(
                Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1, "prefillMsPerToken", 0));
        all.putAll(overrides);
        return SimConfig.load(null, all);
    }
}
