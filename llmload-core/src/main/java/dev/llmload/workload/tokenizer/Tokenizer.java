package dev.llmload.workload.tokenizer;

/**
 * Counts, encodes and decodes text the way a model's tokenizer does, so the workload can state
 * input and output lengths in tokens.
 *
 * <p>Text is always treated as ordinary text: special-token markers such as
 * {@code <|endoftext|>} inside it are encoded as the characters they are, and no BOS/EOS or
 * chat-template tokens are added. A count is therefore the length of the text itself, which is
 * what the workload controls; the server's {@code usage.prompt_tokens} adds its template on top.
 *
 * <p>Implementations are thread-safe and hold no per-call state. One may read its vocabulary on
 * first use rather than when it is made (the built-in encodings do): the first call then takes
 * that long, on whichever thread makes it.
 */
public interface Tokenizer {

    /** The spec this tokenizer was made from (an encoding name or a file path), for reports. */
    String name();

    /** The number of tokens {@link #encode} would return, often without building the array. */
    int count(String text);

    int[] encode(String text);

    /** The text of the tokens. Decoding and re-encoding may merge tokens, so it need not round-trip. */
    String decode(int[] tokens);
}
