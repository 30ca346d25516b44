package dev.llmload.http;

/**
 * The header that carries the API key. The key itself never leaves the HTTP client: it is not
 * logged, journaled or written into any report.
 */
public enum KeyHeader {
    /** {@code Authorization: Bearer <key>} (OpenAI and every OpenAI-compatible server). */
    BEARER("authorization"),
    /** {@code x-api-key: <key>} (Anthropic Messages). */
    X_API_KEY("x-api-key");

    private final String headerName;

    KeyHeader(String headerName) {
        this.headerName = headerName;
    }

    public String headerName() {
        return headerName;
    }

    /** The header's value for {@code key}. */
    public String value(String key) {
        return this == BEARER ? "Bearer " + key : key;
    }
}
