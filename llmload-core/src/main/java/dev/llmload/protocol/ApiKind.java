package dev.llmload.protocol;

import java.util.Locale;

/**
 * The APIs llmload speaks, each with the path its requests go to. OpenAI-shaped APIs (and
 * Anthropic's, which lives beside them under {@code /v1}) have paths under the API base; the
 * engines' native APIs live at the server's root. {@link #AUTO} names no API: it asks the run to
 * find out which one the target answers (and to say which flag to use when it is a native one).
 */
public enum ApiKind {
    CHAT("chat", "/chat/completions", false),
    COMPLETIONS("completions", "/completions", false),
    TGI("tgi", "/generate_stream", true),
    /** The path names the model: {@link Dialect#path()} fills it in. */
    TRITON("triton", "/v2/models/{model}/generate_stream", true),
    OLLAMA("ollama", "/api/generate", true),
    OLLAMA_CHAT("ollama-chat", "/api/chat", true),
    LLAMACPP("llamacpp", "/completion", true),
    SGLANG("sglang", "/generate", true),
    ANTHROPIC("anthropic", "/messages", false),
    RESPONSES("responses", "/responses", false),
    EMBEDDINGS("embeddings", "/embeddings", false),
    RERANK("rerank", "/rerank", false),
    AUTO("auto", null, false);

    private final String cliName;
    private final String path;
    private final boolean atServerRoot;

    ApiKind(String cliName, String path, boolean atServerRoot) {
        this.cliName = cliName;
        this.path = path;
        this.atServerRoot = atServerRoot;
    }

    public String cliName() {
        return cliName;
    }

    /** The path requests go to: under the API base ({@code /v1}), or at the root for a native API. */
    public String path() {
        return path;
    }

    /** A native engine API, served at the server's root rather than under {@code /v1}. */
    public boolean atServerRoot() {
        return atServerRoot;
    }

    /** Answers arrive whole (embeddings, rerank): no TTFT, no inter-token latency. */
    public boolean neverStreams() {
        return this == EMBEDDINGS || this == RERANK;
    }

    /** The names {@link #parse} accepts, for help texts and errors. */
    public static String names() {
        StringBuilder names = new StringBuilder();
        for (ApiKind kind : values()) {
            names.append(names.isEmpty() ? "" : ", ").append(kind.cliName);
        }
        return names.toString();
    }

    /** Parses a name as {@code --api} takes it; a report's recorded {@code OLLAMA_CHAT} reads as {@code ollama-chat}. */
    public static ApiKind parse(String name) {
        String wanted = name.toLowerCase(Locale.ROOT).replace('_', '-');
        for (ApiKind kind : values()) {
            if (kind.cliName.equals(wanted)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown API '" + name + "' (expected one of " + names() + ")");
    }
}
