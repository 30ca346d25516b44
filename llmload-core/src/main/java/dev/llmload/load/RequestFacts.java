package dev.llmload.load;

import dev.llmload.record.SessionTurn;
import dev.llmload.record.TextCounts;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;

/**
 * What llmload keeps of a request's {@link RequestSpec} once its body is encoded: what its record
 * and its limits need, not the conversation, which the body carries. A prompt is therefore held
 * once, in the body, while the request waits to be sent, and not at all while it streams.
 *
 * @param index           the request's position in the workload
 * @param inputTokens     the prompt's length under the workload's tokenizer
 * @param maxOutputTokens sent as {@code max_tokens}
 * @param session         the session and turn, or null outside sessions
 * @param inputWords      words of the prompt's messages ({@link TextCounts}), each message counted on its own
 * @param inputCharacters their code points
 */
record RequestFacts(
        long index, int inputTokens, int maxOutputTokens, SessionTurn session, int inputWords, int inputCharacters) {

    /** Counted here, where the prompt's text is known: once its body is encoded only the body holds it. */
    static RequestFacts of(RequestSpec spec) {
        TextCounts.Counter counted = new TextCounts.Counter();
        for (ChatMessage message : spec.messages()) {
            counted.breakWord();
            counted.add(message.content());
        }
        return new RequestFacts(
                spec.index(),
                spec.inputTokens(),
                spec.maxOutputTokens(),
                spec.session(),
                counted.words(),
                counted.characters());
    }
}
