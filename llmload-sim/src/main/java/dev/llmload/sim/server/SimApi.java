package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The APIs the simulator serves, all at once and over the same engine: OpenAI's chat and
 * completions (as vLLM writes them) and the native APIs users benchmark servers through. Each has
 * its own request fields and its own wire format ({@link WireFormat}); one HTTP request is one
 * engine request whatever the API, so a workload sent through any of them meets the same engine.
 */
enum SimApi {
    CHAT("chat", true),
    COMPLETIONS("completions", false),
    /** TGI {@code /generate_stream} (streamed) and {@code /generate}. */
    TGI("tgi", false),
    /** Triton's generate extension, {@code /v2/models/<model>/generate_stream} and {@code /generate}. */
    TRITON("triton", false),
    OLLAMA("ollama", false),
    OLLAMA_CHAT("ollama-chat", true),
    /** llama.cpp's native {@code /completion}. */
    LLAMACPP("llamacpp", false),
    /** SGLang's native {@code /generate}. */
    SGLANG("sglang", false),
    ANTHROPIC("anthropic", true),
    RESPONSES("responses", true),
    EMBEDDINGS("embeddings", false),
    RERANK("rerank", false);

    private final String id;
    private final boolean messages;

    SimApi(String id, boolean messages) {
        this.id = id;
        this.messages = messages;
    }

    /** The name in the ground-truth log, as llmload's {@code --api} spells it. */
    String id() {
        return id;
    }

    /** Whether the prompt comes as a list of chat messages. */
    boolean messages() {
        return messages;
    }

    /** Whether the model generates text for this API (embeddings and rerank only read their input). */
    boolean generates() {
        return this != EMBEDDINGS && this != RERANK;
    }

    /**
     * The API a POST to {@code path} speaks, or null for none. {@code /generate} is TGI's and
     * SGLang's alike: TGI's body has {@code inputs}, SGLang's {@code text} or {@code input_ids}.
     */
    static SimApi forPost(String path, JsonNode body) {
        return switch (path) {
            case "/v1/chat/completions" -> CHAT;
            case "/v1/completions" -> COMPLETIONS;
            case "/generate_stream" -> TGI;
            case "/generate" -> body != null && body.has("inputs") ? TGI : SGLANG;
            case "/api/generate" -> OLLAMA;
            case "/api/chat" -> OLLAMA_CHAT;
            case "/completion", "/completions" -> LLAMACPP;
            case "/v1/messages" -> ANTHROPIC;
            case "/v1/responses" -> RESPONSES;
            case "/v1/embeddings", "/embeddings" -> EMBEDDINGS;
            case "/v1/rerank", "/rerank", "/v2/rerank" -> RERANK;
            default -> isTritonGenerate(path) ? TRITON : null;
        };
    }

    /** Whether {@code path} is one this enum routes, whatever the body: for 405 against 404. */
    static boolean known(String path) {
        return forPost(path, null) != null;
    }

    /** {@code /v2/models/<model>/generate} or {@code .../generate_stream}. */
    static boolean isTritonGenerate(String path) {
        return path.startsWith("/v2/models/")
                && (path.endsWith("/generate") || path.endsWith("/generate_stream"))
                && path.indexOf('/', "/v2/models/".length()) == path.lastIndexOf('/');
    }

    /**
     * Whether the answer is streamed: TGI and Triton stream on their {@code _stream} path; Ollama
     * streams unless told not to; the rest stream only when asked.
     */
    boolean streams(String path, JsonNode body) {
        return switch (this) {
            case TGI, TRITON -> path.endsWith("_stream");
            case OLLAMA, OLLAMA_CHAT -> body.path("stream").asBoolean(true);
            case EMBEDDINGS, RERANK -> false;
            default -> body.path("stream").asBoolean(false);
        };
    }
}
