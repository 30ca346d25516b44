package dev.llmload.sim.server;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.llmload.sim.engine.FixedLatencyModel;
import dev.llmload.sim.engine.batching.BatchingEngineConfig;
import dev.llmload.sim.fault.FaultRule;
import dev.llmload.sim.fault.PauseWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Every knob of the simulated server. Defaults are in {@link #defaults()}; a YAML or JSON file
 * names only what it changes (camelCase keys as below; unknown keys are an error).
 *
 * <p>Two engines can serve: {@code batching} (the default), a step-based continuous-batching
 * simulation configured by the {@code batching} section, and {@code fixed}, a fixed-latency engine
 * configured by {@code ttftMs}, {@code prefillMsPerToken}, {@code itlMs} and {@code meanOutputTokens}.
 * {@code maxModelLen}, {@code seed}, {@code jitter}, {@code speedup} and {@code enablePrefixCaching}
 * apply to both and are set here only, never inside {@code batching}.
 *
 * @param host                bind address; default {@code 127.0.0.1}
 * @param port                TCP port, 0 for a free one; default 0 ({@code llmload sim} defaults to 8000)
 * @param model               served model name, in {@code /v1/models} and {@code /metrics}; default {@code llmload-sim}
 * @param maxModelLen         context length: prompt + max_tokens above it is a 400; default 32768
 * @param version             what {@code GET /version} reports; default {@code 0.11.0}
 * @param ioThreads           Netty event loop threads; default 1
 * @param seed                seeds the engine's jitter and lengths and the fault draws; default 0
 * @param ttftMs              fixed engine: TTFT of an empty prompt; default 50
 * @param prefillMsPerToken   fixed engine: added to the TTFT per prompt token; default 0.02
 * @param itlMs               fixed engine: inter-token latency; default 20
 * @param jitter              fixed engine: uniform ± share applied to every delay, 0 to 1; batching
 *                            engine: σ of a log-normal factor (mean 1) on every step time; default 0
 * @param speedup             every engine delay is divided by this; default 1
 * @param meanOutputTokens    fixed engine: mean length of a generation without ignore_eos (per-token
 *                            EOS chance 1/mean), cut at max_tokens; default 128 (the batching engine
 *                            has {@code batching.outputLength})
 * @param tokensPerEvent      tokens coalesced into one SSE event (emulates detokeniser batching); default 1
 * @param echo                generated words cycle through the prompt's words; default false
 *                            (per request: header {@code x-llmload-sim-echo: true})
 * @param enablePrefixCaching batching engine: reuse cached prompt prefixes; reported in
 *                            {@code vllm:cache_config_info}; default true
 * @param faults              fault rules {@code SPEC@RATE}; default none
 * @param retryAfterSeconds   {@code Retry-After} of an injected 429; default 1
 * @param pauses              engine pauses {@code AT_MS:DURATION_MS} after start; default none
 * @param groundTruth         path of the ground-truth JSONL log; default null (none)
 * @param engine              {@code batching} or {@code fixed}; default {@code batching}
 * @param batching            the batching engine's own settings (see {@link BatchingEngineConfig});
 *                            default {@link BatchingEngineConfig#defaults()}
 * @param earlyRoleChunk      chat streams send their role-only chunk as soon as a request is accepted;
 *                            default false: in the same step as the first token, as vLLM sends it (a
 *                            client that takes the first chunk for the first token then measures a
 *                            TTFT near zero only with this set)
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
        String groundTruth,
        EngineKind engine,
        BatchingEngineConfig batching,
        boolean earlyRoleChunk) {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Keys of {@link BatchingEngineConfig} that this record sets for both engines. */
    private static final List<String> SHARED_ENGINE_KEYS =
            List.of("maxModelLen", "seed", "jitter", "speedup", "enablePrefixCaching");

    /** Which engine serves the requests. */
    public enum EngineKind {
        /** {@link dev.llmload.sim.engine.batching.BatchingEngine}: continuous batching, KV cache, step-time model. */
        BATCHING,
        /** {@link dev.llmload.sim.engine.FixedLatencyEngine}: per-request fixed TTFT and ITL. */
        FIXED;

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static EngineKind of(String id) {
            for (EngineKind k : values()) {
                if (k.id().equals(id)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown engine '" + id + "'; known: batching, fixed");
        }
    }

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
        engine = engine == null ? EngineKind.BATCHING : engine;
        batching = (batching == null ? BatchingEngineConfig.builder() : batching.toBuilder())
                .maxModelLen(maxModelLen)
                .seed(seed)
                .jitter(jitter)
                .speedup(speedup)
                .enablePrefixCaching(enablePrefixCaching)
                .build();
    }

    public static SimConfig defaults() {
        return new SimConfig(
                "127.0.0.1",
                0,
                "llmload-sim",
                // Long enough for agent sessions' contexts, as vLLM deployments commonly set it.
                32768,
                "0.11.0",
                1,
                0,
                50,
                0.02,
                20,
                0,
                1,
                128,
                1,
                false,
                true,
                List.of(),
                1,
                List.of(),
                null,
                EngineKind.BATCHING,
                BatchingEngineConfig.defaults(),
                false);
    }

    /**
     * The defaults, overlaid with {@code file} (YAML or JSON; may be null) and then with
     * {@code overrides} (keys as in the file, values as Jackson would read them; a nested map such
     * as {@code batching} changes only the keys it names).
     */
    public static SimConfig load(Path file, Map<String, ?> overrides) {
        ObjectNode tree = YAML.valueToTree(defaults());
        try {
            if (file != null) {
                JsonNode fromFile = read(file);
                if (fromFile != null && !fromFile.isMissingNode() && !fromFile.isNull()) {
                    if (!fromFile.isObject()) {
                        throw new IllegalArgumentException("simulator config " + file + " must be a mapping");
                    }
                    rejectSharedKeysInBatching(fromFile);
                    merge(tree, (ObjectNode) fromFile);
                }
            }
            ObjectNode overridden = YAML.valueToTree(overrides);
            rejectSharedKeysInBatching(overridden);
            merge(tree, overridden);
            // The batching section is validated on its own when read (maxModelLen must fit in its
            // cache), so it must see the top-level values it will be given.
            if (tree.get("batching") instanceof ObjectNode batchingNode) {
                for (String key : SHARED_ENGINE_KEYS) {
                    batchingNode.set(key, tree.get(key));
                }
            }
            return YAML.treeToValue(tree, SimConfig.class);
        } catch (JsonProcessingException e) {
            // A key or value the settings do not take: Jackson's message is several lines, and a
            // check of the settings' own comes wrapped in one naming a builder class.
            String reason = e instanceof ValueInstantiationException && e.getCause() != null
                    ? e.getCause().getMessage()
                    : e.getOriginalMessage();
            throw new IllegalArgumentException(
                    "simulator config" + (file == null ? "" : " " + file) + ": " + firstLine(reason));
        }
    }

    /**
     * The file as a tree. What is wrong with it is one line: a file that is not there or cannot be
     * read, or YAML that does not parse, at {@code FILE:LINE:COLUMN} as compilers write it (so an
     * editor or terminal can go there), as the run configuration's files are reported.
     */
    private static JsonNode read(Path file) {
        try {
            return YAML.readTree(Files.readAllBytes(file));
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
                // The parser's own position is where it stopped, often the line before the problem.
                Mark mark = yaml.getProblemMark();
                throw new IllegalArgumentException("simulator config " + file + ":" + (mark.getLine() + 1) + ":"
                        + (mark.getColumn() + 1) + ": "
                        + firstLine((yaml.getContext() == null ? "" : yaml.getContext() + ": ") + yaml.getProblem()));
            }
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("simulator config " + file
                    + (at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr()) + ": "
                    + firstLine(e.getOriginalMessage()));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("simulator config " + file + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("simulator config " + file + ": cannot read: "
                    + (Files.isDirectory(file) ? "a directory, not a file" : firstLine(e.getMessage())));
        }
    }

    private static String firstLine(String message) {
        return message == null
                ? "cannot read"
                : message.strip().lines().findFirst().orElse(message);
    }

    /**
     * Overlays {@code top} on {@code base}: mappings are merged key by key (so an override of
     * {@code batching.numBlocks} keeps the file's other batching keys and coefficients), anything
     * else (numbers, strings, lists such as {@code faults}) is replaced whole.
     */
    private static void merge(ObjectNode base, ObjectNode top) {
        top.properties().forEach(entry -> {
            if (entry.getValue() instanceof ObjectNode topChild
                    && base.get(entry.getKey()) instanceof ObjectNode baseChild) {
                merge(baseChild, topChild);
            } else {
                base.set(entry.getKey(), entry.getValue());
            }
        });
    }

    private static void rejectSharedKeysInBatching(JsonNode config) {
        JsonNode batching = config.get("batching");
        if (batching == null) {
            return;
        }
        for (String key : SHARED_ENGINE_KEYS) {
            if (batching.has(key)) {
                throw new IllegalArgumentException("set '" + key + "' at the top level of the simulator config, "
                        + "not under 'batching': it applies to both engines");
            }
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
