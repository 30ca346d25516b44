package dev.llmload.config;

/**
 * Multi-turn sessions ({@code --sessions}, {@code --think-time}, {@code --max-sessions}); each new
 * user message is {@link Data#inputTokens()} long and each answer at most {@link Data#outputTokens()}.
 *
 * @param turns       turns per session, e.g. {@code 3} or {@code uniform:2:6}
 * @param thinkTimeMs pause before turns 2..n, in ms from the previous answer's end; null for none
 * @param maxSessions sessions in flight at most: the concurrency of a closed loop, a gate on an
 *                    open loop's session starts; null for no gate (open loop only)
 * @param agent       the agentic additions (a shared system prompt, subagents); null for chat sessions
 */
public record Sessions(Lengths turns, Lengths thinkTimeMs, Integer maxSessions, Agent agent) {

    public Sessions {
        if (turns == null) {
            throw new ConfigException("--sessions: the number of turns is required");
        }
        if (maxSessions != null && maxSessions < 1) {
            throw new ConfigException("--max-sessions must be at least 1, got " + maxSessions);
        }
    }

    /** Chat sessions. */
    public Sessions(Lengths turns, Lengths thinkTimeMs, Integer maxSessions) {
        this(turns, thinkTimeMs, maxSessions, null);
    }

    /**
     * What makes sessions agent-like ({@code --system-prompt-tokens}, {@code --subagent-probability},
     * {@code --subagent-fanout}).
     *
     * @param systemPromptTokens    the system prompt every session starts with, the same text in all; 0 for none
     * @param subagentProbability   the chance that a turn before a session's last forks subagents
     * @param subagentFanout        subagents per fork; null when {@code subagentProbability} is 0
     */
    public record Agent(int systemPromptTokens, double subagentProbability, Lengths subagentFanout) {

        public Agent {
            if (systemPromptTokens < 0) {
                throw new ConfigException("--system-prompt-tokens must be at least 0, got " + systemPromptTokens);
            }
            if (!(subagentProbability >= 0 && subagentProbability <= 1)) {
                throw new ConfigException("--subagent-probability must be between 0 and 1, got " + subagentProbability);
            }
            if (subagentProbability > 0 && subagentFanout == null) {
                throw new ConfigException("--subagent-probability needs --subagent-fanout");
            }
        }
    }
}
