package dev.llmload.config;

/**
 * Multi-turn sessions ({@code --sessions}, {@code --think-time}, {@code --max-sessions}); each new
 * user message is {@link Data#inputTokens()} long and each answer at most {@link Data#outputTokens()}.
 *
 * @param turns       turns per session, e.g. {@code 3} or {@code uniform:2:6}
 * @param thinkTimeMs pause before turns 2..n, in ms from the previous answer's end; null for none
 * @param maxSessions sessions in flight at most: the concurrency of a closed loop, a gate on an
 *                    open loop's session starts; null for no gate (open loop only)
 */
public record Sessions(Lengths turns, Lengths thinkTimeMs, Integer maxSessions) {

    public Sessions {
        if (turns == null) {
            throw new ConfigException("--sessions: the number of turns is required");
        }
        if (maxSessions != null && maxSessions < 1) {
            throw new ConfigException("--max-sessions must be at least 1, got " + maxSessions);
        }
    }
}
