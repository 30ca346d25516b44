package dev.llmload.protocol;

/**
 * What one decoded response chunk (a streamed SSE event, or a whole non-streamed body) carries
 * that llmload measures. Any part may be absent (null).
 *
 * @param content      generated answer text (chat {@code delta.content} / {@code message.content},
 *                     completions {@code text})
 * @param reasoning    generated reasoning text ({@code reasoning} or {@code reasoning_content})
 * @param finishReason {@code finish_reason} when the server set one
 * @param usage        the {@code usage} object when present and not null
 * @param error        the message of an {@code error} object, when the chunk is an error
 */
public record StreamChunk(String content, String reasoning, String finishReason, Usage usage, String error) {

    /** Token counts as the server reported them; -1 where a field was absent. */
    public record Usage(int promptTokens, int completionTokens) {}

    /** True when the chunk carries generated text of any channel: the events that set TTFT and ITL. */
    public boolean carriesText() {
        return (content != null && !content.isEmpty()) || (reasoning != null && !reasoning.isEmpty());
    }

    public boolean carriesContent() {
        return content != null && !content.isEmpty();
    }
}
