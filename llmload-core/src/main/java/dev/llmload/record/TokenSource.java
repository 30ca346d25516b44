package dev.llmload.record;

/** Where a request's output token count came from (DESIGN.md §3: never silently the requested maximum). */
public enum TokenSource {
    /** The server's {@code usage.completion_tokens}. */
    SERVER,
    /** Counted by llmload's tokenizer from the text received, because the server sent no usage. */
    LOCAL_TOKENIZER;

    public String key() {
        return this == SERVER ? "server" : "local_tokenizer";
    }
}
