package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmload.sim.engine.FixedLatencyModel;
import dev.llmload.sim.fault.FaultRule;
import dev.llmload.sim.fault.PauseWindow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Every knob of the simulated server. Defaults are in {@link #defaults()}; a YAML or JSON file
 * names only what it changes (camelCase keys as below; unknown keys are an error).
 *
 * @param host                bind address; default {@code 127.0.0.1}
 * @param port                TCP port, 0 for a free one; default 0 ({@code llmload sim} defaults to 8000)
 * @param model               served model name, in {@code /v1/models} and {@code /metrics}; default {@code llmload-sim}
 * @param maxModelLen         context length: prompt + max_tokens above it is a 400; default 8192
 * @param version             what {@code GET /version} reports; default {@code 0.11.0}
 * @param ioThreads           Netty event loop threads; default 1
 * @param seed                seeds the engine's jitter and lengths and the fault draws; default 0
 * @param ttftMs              TTFT of an empty prompt; default 50
 * @param prefillMsPerToken   added to the TTFT per prompt token; default 0.02
 * @param itlMs               inter-token latency; default 20
 * @param jitter              uniform ± share applied to every delay, 0 to 1; default 0
 * @param speedup             every engine delay is divided by this; default 1
 * @param meanOutputTokens    mean length of a generation without ignore_eos (per-token EOS chance
 *                            1/mean), cut at max_tokens; default 128
 * @param tokensPerEvent      tokens coalesced into one SSE event (emulates detokeniser batching); default 1
 * @param echo                generated words cycle through the prompt's words; default false
 *                            (per request: header {@code x-llmload-sim-echo: true})
 * @param enablePrefixCaching reported in {@code vllm:cache_config_info}; default true
 * @param faults              fault rules {@code SPEC@RATE}; default none
 * @param retryAfterSeconds   {@code Retry-After} of an injected 429; default 1
 * @param pauses              engine pauses {@code AT_MS:DURATION_MS} after start; default none
 * @param groundTruth         path of the ground-truth JSONL log; default null (none)
 */
public record SimConfig(
        String host,
        int port,
        String model,
        int maxModelLen,
        String version,
        int ioThreads,
        long seed,
        double ttftMs,
        double prefillMsPerToken,
        double itlMs,
        double jitter,
        double speedup,
        int meanOutputTokens,
        int tokensPerEvent,
        boolean echo,
        boolean enablePrefixCaching,
        List<FaultRule> faults,
        int retryAfterSeconds,
        List<PauseWindow> pauses,
        String groundTruth) {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public SimConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be within 0..65535: " + port);
        }
        if (maxModelLen < 1 || ioThreads < 1 || tokensPerEvent < 1 || retryAfterSeconds < 0) {
            throw new IllegalArgumentException(
                    "maxModelLen, ioThreads and tokensPerEvent must be positive, retryAfterSeconds not negative");
        }
        faults = faults == null ? List.of() : List.copyOf(faults);
        pauses = pauses == null ? List.of() : List.copyOf(pauses);
        fixedLatencyModel(ttftMs, prefillMsPerToken, itlMs, jitter, speedup, meanOutputTokens); // validates
    }

    public static SimConfig defaults() {
        return new SimConfig("127.0.0.1", 0, "llmload-sim", 8192, "0.11.0", 1, 0, 50, 0.02, 20, 0, 1, 128, 1,
                false, true, List.of(), 1, List.of(), null);
    }

    /**
     * The defaults, overlaid with {@code file} (YAML or JSON; may be null) and then with
     * {@code overrides} (keys as in the file, values as Jackson would read them).
     */
    public static SimConfig load(Path file, Map<String, ?> overrides) {
        ObjectNode tree = YAML.valueToTree(defaults());
        try {
            if (file != null) {
                JsonNode fromFile = YAML.readTree(file.toFile());
                if (fromFile != null && !fromFile.isMissingNode() && !fromFile.isNull()) {
                    if (!fromFile.isObject()) {
                        throw new IllegalArgumentException("simulator config " + file + " must be a mapping");
                    }
                    tree.setAll((ObjectNode) fromFile);
                }
            }
            tree.setAll((ObjectNode) YAML.valueToTree(overrides));
            return YAML.treeToValue(tree, SimConfig.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read simulator config: " + e.getMessage(), e);
        }
    }

    public FixedLatencyModel fixedLatencyModel() {
        return fixedLatencyModel(ttftMs, prefillMsPerToken, itlMs, jitter, speedup, meanOutputTokens);
    }

    private static FixedLatencyModel fixedLatencyModel(
            double ttftMs, double prefillMsPerToken, double itlMs, double jitter, double speedup, int mean) {
        return new FixedLatencyModel(ttftMs, prefillMsPerToken, itlMs, jitter, speedup, mean);
    }
}
