package dev.llmload.workload.session;

import dev.llmload.workload.length.LengthDistribution;

/**
 * The shape of multi-turn chat sessions: per session a number of turns, per turn a fresh user
 * message and a maximum answer length, and a think time before every turn after the first.
 * Each turn resends the whole history (earlier user messages and the model's actual answers), so
 * input length grows turn by turn as it does in a real chat.
 *
 * @param turns              turns per session
 * @param userTokens         tokens of each new user message
 * @param outputTokens       {@code max_tokens} of each turn
 * @param thinkTimeMillis    pause before turns 2..n, in milliseconds, from the previous answer's
 *                           end; null for none
 * @param maxActiveSessions  sessions the dispatcher keeps in flight at once; it enforces the bound
 *                           ({@link Integer#MAX_VALUE}: no bound)
 */
public record SessionPlan(
        LengthDistribution turns,
        LengthDistribution userTokens,
        LengthDistribution outputTokens,
        LengthDistribution thinkTimeMillis,
        int maxActiveSessions) {

    public SessionPlan {
        if (turns == null || userTokens == null || outputTokens == null) {
            throw new IllegalArgumentException("a session plan needs turns, user tokens and output tokens");
        }
        if (maxActiveSessions < 1) {
            throw new IllegalArgumentException("max active sessions " + maxActiveSessions + " must be at least 1");
        }
    }

    String describe() {
        return "turns=" + turns.describe() + " user=" + userTokens.describe() + " output=" + outputTokens.describe()
                + " think_ms=" + (thinkTimeMillis == null ? "0" : thinkTimeMillis.describe())
                + " max_active=" + (maxActiveSessions == Integer.MAX_VALUE ? "none" : maxActiveSessions);
    }
}
