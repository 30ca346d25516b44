package dev.llmload.run;

/**
 * Multi-turn sessions as the user described them ({@code --sessions}, {@code --think-time},
 * {@code --max-sessions}); each new user message is {@link DataSpec#inputTokens()} long and each
 * answer at most {@link DataSpec#outputTokens()}.
 *
 * @param turns       turns per session: a length distribution such as {@code 3} or {@code uniform:2:6}
 * @param thinkTimeMs pause before turns 2..n, in ms from the previous answer's end: a length
 *                    distribution, or null for none
 * @param maxSessions sessions in flight at most: the concurrency of a closed loop, a gate on an
 *                    open loop's session starts; null for no gate (open loop only)
 */
public record SessionSpec(String turns, String thinkTimeMs, Integer maxSessions) {}
