package dev.llmload.workload;

import dev.llmload.record.SessionTurn;
import java.util.List;

/**
 * What to send for one request, independent of the API dialect: the chat API sends
 * {@code messages} as they are, the completions API sends their contents joined as one prompt.
 *
 * @param index           position in the workload, 0-based; pairs with the schedule's send slot
 * @param messages        the conversation; a single-turn prompt is one user message
 * @param inputTokens     the prompt's length under the workload's tokenizer (the server's
 *                        {@code usage.prompt_tokens} is preferred when it reports one)
 * @param maxOutputTokens sent as {@code max_tokens}
 * @param session         the session and turn this request is, or null outside sessions
 */
public record RequestSpec(
        long index, List<ChatMessage> messages, int inputTokens, int maxOutputTokens, SessionTurn session) {

    public RequestSpec {
        messages = List.copyOf(messages);
    }

    /** A request outside any session. */
    public RequestSpec(long index, List<ChatMessage> messages, int inputTokens, int maxOutputTokens) {
        this(index, messages, inputTokens, maxOutputTokens, null);
    }

    /** The prompt for the completions API: the message contents, in order, joined by newlines. */
    public String promptText() {
        if (messages.size() == 1) {
            return messages.getFirst().content();
        }
        StringBuilder text = new StringBuilder();
        for (ChatMessage message : messages) {
            if (!text.isEmpty()) {
                text.append('\n');
            }
            text.append(message.content());
        }
        return text.toString();
    }
}
