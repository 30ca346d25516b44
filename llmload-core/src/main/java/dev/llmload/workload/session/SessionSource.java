package dev.llmload.workload.session;

import dev.llmload.workload.ContentHash;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An endless supply of synthetic {@link Session}s following one {@link SessionPlan}. Session i
 * depends only on the seed and the plan. Request indexes are handed out across all sessions in
 * the order turns are made, so they stay unique when sessions interleave.
 *
 * <p>{@link #nextSession} is called from one thread; sessions may then be driven from others.
 */
public final class SessionSource {

    private final SessionPlan plan;
    private final SyntheticPrompts prompts;
    private final long seed;
    private final SplittableRandom master;
    private final AtomicLong requestIndex = new AtomicLong();
    private long next;

    public SessionSource(SessionPlan plan, SyntheticPrompts prompts, long seed) {
        this.plan = plan;
        this.prompts = prompts;
        this.seed = seed;
        this.master = new SplittableRandom(seed);
    }

    public SessionPlan plan() {
        return plan;
    }

    public Session nextSession() {
        return new Session(next++, plan, prompts, master.split(), requestIndex);
    }

    /** One line for the report. */
    public String describe() {
        return "sessions " + plan.describe() + " tokenizer=" + prompts.tokenizer().name() + " seed=" + seed;
    }

    /** SHA-256 of the plan, tokenizer, vocabulary and seed: equal for runs that sent comparable sessions. */
    public String contentHash() {
        StringBuilder parameters = new StringBuilder(describe()).append(" vocabulary=").append(prompts.vocabularySize());
        for (LengthDistribution distribution : List.of(plan.turns(), plan.userTokens(), plan.outputTokens())) {
            if (distribution instanceof LengthDistribution.Empirical empirical) {
                parameters.append('\n').append(empirical.histogram());
            }
        }
        return ContentHash.of(parameters.toString());
    }
}
