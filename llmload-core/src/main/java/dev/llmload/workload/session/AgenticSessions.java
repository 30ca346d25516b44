package dev.llmload.workload.session;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.ContentHash;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An endless supply of synthetic agent sessions: chains of model calls (a {@link SessionPlan}'s
 * turns) that start with one system prompt shared by every session, pause for a tool call (the
 * plan's think time) before each call after the first, grow their context by the tool's result
 * (the plan's user tokens) and the model's answers, and now and then fork subagents. After each
 * turn but the last, with probability {@code subagentProbability}, {@code subagentFanout}
 * subagents fork from the session's context, each with its own number of turns drawn from the
 * plan and its own tool waits; they fork no further. The session's next turn waits for all of
 * them (see {@link Session#forks}).
 *
 * <p>A session tree is drawn whole when {@link #nextSession} makes it, from a random stream split
 * off in order, so session i and its subagents depend only on the seed and i. Session ids are
 * handed out in that order too: a session, then its subagents.
 *
 * <p>{@link #nextSession} is called from one thread; sessions may then be driven from others.
 */
public final class AgenticSessions implements SessionSupply {

    private final SessionPlan plan;
    private final int systemPromptTokens;
    private final double subagentProbability;
    private final LengthDistribution subagentFanout;
    private final SyntheticPrompts prompts;
    private final long seed;
    private final SplittableRandom master;
    private final AtomicLong requests = new AtomicLong();
    private long nextId;
    private List<ChatMessage> system;

    /**
     * @param systemPromptTokens  tokens of the shared system prompt; 0 for none
     * @param subagentProbability chance in [0, 1] that a turn before the last forks subagents
     * @param subagentFanout      subagents per fork; may be null when the probability is 0
     */
    public AgenticSessions(
            SessionPlan plan,
            int systemPromptTokens,
            double subagentProbability,
            LengthDistribution subagentFanout,
            SyntheticPrompts prompts,
            long seed) {
        if (systemPromptTokens < 0 || !(subagentProbability >= 0 && subagentProbability <= 1)) {
            throw new IllegalArgumentException(
                    "system prompt " + systemPromptTokens + " tokens, subagent probability " + subagentProbability);
        }
        if (subagentProbability > 0 && subagentFanout == null) {
            throw new IllegalArgumentException("subagents need a fan-out");
        }
        this.plan = plan;
        this.systemPromptTokens = systemPromptTokens;
        this.subagentProbability = subagentProbability;
        this.subagentFanout = subagentFanout;
        this.prompts = prompts;
        this.seed = seed;
        this.master = new SplittableRandom(seed);
    }

    @Override
    public Session nextSession() {
        if (system == null) {
            // Made with the first session, not before: prompts read their vocabulary on first use.
            system = systemPromptTokens == 0
                    ? List.of()
                    : List.of(new ChatMessage(
                            "system",
                            prompts.generate(systemPromptTokens, new SplittableRandom(seed ^ 0x5EED5157E3L))));
        }
        SplittableRandom random = master.split();
        TraceSessions.Spec root = spec(random, true);
        return new TraceSession(root, null, prompts, seed, requests::getAndIncrement, system, systemPromptTokens);
    }

    @Override
    public int maxActiveSessions() {
        return plan.maxActiveSessions();
    }

    @Override
    public String describe() {
        return "agentic sessions " + plan.describe() + " system_prompt=" + systemPromptTokens + " subagent_p="
                + subagentProbability + " fanout=" + (subagentFanout == null ? "0" : subagentFanout.describe())
                + " tokenizer=" + prompts.tokenizer().name() + " seed=" + seed;
    }

    /** SHA-256 of the plan, the agent parameters, tokenizer, vocabulary and seed. */
    @Override
    public String contentHash() {
        StringBuilder parameters =
                new StringBuilder(describe()).append(" vocabulary=").append(prompts.vocabularySize());
        for (LengthDistribution distribution : new LengthDistribution[] {
            plan.turns(), plan.userTokens(), plan.outputTokens(), plan.thinkTimeMillis(), subagentFanout
        }) {
            if (distribution instanceof LengthDistribution.Empirical empirical) {
                parameters.append('\n').append(empirical.histogram());
            }
        }
        return ContentHash.of(parameters.toString());
    }

    /** A session's turns and, for a root, its subagents, drawn in a fixed order from {@code random}. */
    private TraceSessions.Spec spec(SplittableRandom random, boolean root) {
        long id = nextId++;
        int turns = plan.turns().sample(random);
        List<TraceSessions.Turn> made = new ArrayList<>(turns);
        for (int i = 0; i < turns; i++) {
            long toolWaitNanos = i == 0 || plan.thinkTimeMillis() == null
                    ? 0
                    : plan.thinkTimeMillis().sample(random) * 1_000_000L;
            made.add(new TraceSessions.Turn(
                    0,
                    toolWaitNanos,
                    -1,
                    plan.userTokens().sample(random),
                    plan.outputTokens().sample(random),
                    null));
        }
        Map<Integer, List<TraceSessions.Spec>> forks = new HashMap<>();
        int treeTurns = turns;
        if (root && subagentProbability > 0) {
            for (int after = 1; after < turns; after++) {
                if (random.nextDouble() < subagentProbability) {
                    int fanout = subagentFanout.sample(random);
                    List<TraceSessions.Spec> children = new ArrayList<>(fanout);
                    for (int k = 0; k < fanout; k++) {
                        TraceSessions.Spec child = spec(random, false);
                        children.add(child);
                        treeTurns += child.treeTurns();
                    }
                    forks.put(after, List.copyOf(children));
                }
            }
        }
        return new TraceSessions.Spec(id, "agent-" + id, List.copyOf(made), Map.copyOf(forks), treeTurns);
    }
}
