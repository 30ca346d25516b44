package dev.llmload.protocol;

import java.util.Locale;

/** The OpenAI-compatible APIs llmload speaks, with their paths under the API base (usually /v1). */
public enum ApiKind {
    CHAT("chat", "/chat/completions"),
    COMPLETIONS("completions", "/completions");

    private final String cliName;
    private final String path;

    ApiKind(String cliName, String path) {
        this.cliName = cliName;
        this.path = path;
    }

    public String cliName() {
        return cliName;
    }

    public String path() {
        return path;
    }

    public static ApiKind parse(String name) {
        for (ApiKind kind : values()) {
            if (kind.cliName.equals(name.toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown API '" + name + "' (expected chat or completions)");
    }
}
