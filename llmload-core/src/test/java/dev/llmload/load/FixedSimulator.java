package dev.llmload.load;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.util.HashMap;
import java.util.Map;

/** Test helper: the simulator on loopback with a fixed timing model and no jitter. */
public final class FixedSimulator {

    private FixedSimulator() {}

    /**
     * TTFT {@code ttftMs} whatever the prompt, then one token every {@code itlMs}; {@code extra}
     * adds or overrides settings of {@code llmload sim --config}.
     */
    public static SimServer start(double ttftMs, double itlMs, Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("engine", "fixed");
        settings.put("ttftMs", ttftMs);
        settings.put("prefillMsPerToken", 0.0);
        settings.put("itlMs", itlMs);
        settings.put("jitter", 0.0);
        settings.putAll(extra);
        return SimServer.start(SimConfig.load(null, settings));
    }
}
