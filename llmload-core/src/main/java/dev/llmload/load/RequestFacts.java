package dev.llmload.load;

import dev.llmload.record.SessionTurn;
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
 */
record RequestFacts(long index, int inputTokens, int maxOutputTokens, SessionTurn session) {

    static RequestFacts of(RequestSpec spec) {
        return new RequestFacts(spec.index(), spec.inputTokens(), spec.maxOutputTokens(), spec.session());
    }
}
