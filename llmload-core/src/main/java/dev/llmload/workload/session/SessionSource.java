package dev.llmload.workload.session;

import dev.llmload.workload.ContentHash;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An endless supply of synthetic {@link ChatSession}s following one {@link SessionPlan}. Session i
 * depends only on the seed and the plan. Request indexes are handed out across all sessions in
 * the order turns are made, so they stay unique when sessions interleave.
 *
 * <p>A {@linkplain #part part} of the supply (one segment of a run spread over hosts) makes only
 * sessions i with i mod count = index, each exactly as the whole supply makes it, and numbers its
 * requests k·count + index (k its own counter): the parts together hold every session of the whole,
 * no session is split, and request indexes stay unique over all parts.
 *
 * <p>{@link #nextSession} is called from one thread; sessions may then be driven from others.
 */
public final class SessionSource implements SessionSupply {

    private final SessionPlan plan;
    /** The whole supply's plan: what every part describes and hashes, so that the parts of one run agree. */
    private final SessionPlan wholePlan;

    private final SyntheticPrompts prompts;
    private final long seed;
    private final int partIndex;
    private final int partCount;
    private final SplittableRandom master;
    private final AtomicLong requests = new AtomicLong();
    private long next;

    public SessionSource(SessionPlan plan, SyntheticPrompts prompts, long seed) {
        this(plan, plan, prompts, seed, 0, 1);
    }

    private SessionSource(
            SessionPlan plan,
            SessionPlan wholePlan,
            SyntheticPrompts prompts,
            long seed,
            int partIndex,
            int partCount) {
        this.plan = plan;
        this.wholePlan = wholePlan;
        this.prompts = prompts;
        this.seed = seed;
        this.partIndex = partIndex;
        this.partCount = partCount;
        this.master = new SplittableRandom(seed);
    }

    /**
     * Part {@code index} of {@code count} of this supply, from its start, keeping at most
     * {@code maxActiveSessions} sessions in flight (its share of the whole's bound).
     */
    public SessionSource part(int index, int count, int maxActiveSessions) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("part " + index + " of " + count);
        }
        SessionPlan partPlan = new SessionPlan(
                plan.turns(), plan.userTokens(), plan.outputTokens(), plan.thinkTimeMillis(), maxActiveSessions);
        return new SessionSource(partPlan, wholePlan, prompts, seed, index, count);
    }

    public SessionPlan plan() {
        return plan;
    }

    @Override
    public Session nextSession() {
        while (true) {
            long id = next++;
            // Every session's random stream is split off in order, also those of other parts, so
            // that session i is the same in every part and in the whole.
            SplittableRandom random = master.split();
            if (id % partCount == partIndex) {
                return new ChatSession(
                        id, plan, prompts, random, () -> requests.getAndIncrement() * partCount + partIndex);
            }
        }
    }

    @Override
    public int maxActiveSessions() {
        return plan.maxActiveSessions();
    }

    @Override
    public String describe() {
        return "sessions " + wholePlan.describe() + " tokenizer="
                + prompts.tokenizer().name() + " seed=" + seed;
    }

    /** SHA-256 of the plan, tokenizer, vocabulary and seed: equal for runs that sent comparable sessions. */
    @Override
    public String contentHash() {
        StringBuilder parameters =
                new StringBuilder(describe()).append(" vocabulary=").append(prompts.vocabularySize());
        for (LengthDistribution distribution :
                List.of(wholePlan.turns(), wholePlan.userTokens(), wholePlan.outputTokens())) {
            if (distribution instanceof LengthDistribution.Empirical empirical) {
                parameters.append('\n').append(empirical.histogram());
            }
        }
        return ContentHash.of(parameters.toString());
    }
}
