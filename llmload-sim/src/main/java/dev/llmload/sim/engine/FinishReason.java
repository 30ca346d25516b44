package dev.llmload.sim.engine;

/** Why a generation ended, with the value OpenAI's {@code finish_reason} field takes for it. */
public enum FinishReason {
    /** The model produced its end-of-sequence token. */
    STOP("stop"),
    /** {@code max_tokens} was reached. */
    LENGTH("length"),
    /** The request was cancelled (client gone) or failed inside the engine. */
    ABORT("abort");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
