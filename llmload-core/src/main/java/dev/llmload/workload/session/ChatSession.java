package dev.llmload.workload.session;

import dev.llmload.record.SessionTurn;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * One synthetic multi-turn conversation of a {@link SessionPlan}. The dispatcher sends {@link #firstTurn},
 * then, after {@link #thinkTimeBeforeNextTurn} has passed since the answer, {@link #nextTurn} with
 * the text the model actually answered, until {@link #hasNextTurn} is false. If a turn fails the
 * dispatcher ends the session; there is no answer to build on.
 *
 * <p>User messages, turn count and think times depend only on the seed and the session id; the
 * history also holds the live answers, so its length depends on the server. A turn's
 * {@link RequestSpec#inputTokens()} is the sum of the token counts of all its message contents,
 * without chat-template tokens.
 *
 * <p>Not thread-safe: a session is driven by one thread at a time, turn after turn.
 */
public final class ChatSession implements Session {

    private final long id;
    private final SessionPlan plan;
    private final SyntheticPrompts prompts;
    private final SplittableRandom random;
    private final LongSupplier requestIndexes;
    private final int turns;
    private final Duration[] thinkTimes;
    private final List<ChatMessage> history = new ArrayList<>();
    private int historyTokens;
    private int sent;

    ChatSession(
            long id, SessionPlan plan, SyntheticPrompts prompts, SplittableRandom random, LongSupplier requestIndexes) {
        this.id = id;
        this.plan = plan;
        this.prompts = prompts;
        this.random = random;
        this.requestIndexes = requestIndexes;
        this.turns = plan.turns().sample(random);
        this.thinkTimes = new Duration[turns];
        for (int i = 0; i < turns; i++) {
            thinkTimes[i] = i == 0 || plan.thinkTimeMillis() == null
                    ? Duration.ZERO
                    : Duration.ofMillis(plan.thinkTimeMillis().sample(random));
        }
    }

    /** 0-based, in the order the source made sessions. */
    @Override
    public long id() {
        return id;
    }

    /** Turns this session will have in all. */
    @Override
    public int turns() {
        return turns;
    }

    /** Turns made so far. */
    @Override
    public int turnsSent() {
        return sent;
    }

    @Override
    public boolean hasNextTurn() {
        return sent < turns;
    }

    /** The pause before the next turn: zero before the first. */
    @Override
    public Duration thinkTimeBeforeNextTurn() {
        if (!hasNextTurn()) {
            throw new IllegalStateException("session " + id + " has no turn left");
        }
        return thinkTimes[sent];
    }

    /** The first turn: one new user message. */
    @Override
    public RequestSpec firstTurn() {
        if (sent != 0) {
            throw new IllegalStateException("session " + id + " already started");
        }
        return turn();
    }

    /**
     * The next turn: the history so far, the model's answer to the last turn, and a new user message.
     *
     * @param previousAnswer the text the model answered to the last turn sent
     */
    @Override
    public RequestSpec nextTurn(String previousAnswer) {
        if (sent == 0) {
            throw new IllegalStateException("session " + id + " has not sent its first turn");
        }
        if (!hasNextTurn()) {
            throw new IllegalStateException("session " + id + " has no turn left");
        }
        history.add(new ChatMessage("assistant", previousAnswer));
        historyTokens += prompts.tokenizer().count(previousAnswer);
        return turn();
    }

    private RequestSpec turn() {
        int userTokens = plan.userTokens().sample(random);
        history.add(ChatMessage.user(prompts.generate(userTokens, random)));
        historyTokens += userTokens;
        sent++;
        return new RequestSpec(
                requestIndexes.getAsLong(),
                history,
                historyTokens,
                plan.outputTokens().sample(random),
                new SessionTurn(id, sent));
    }
}
