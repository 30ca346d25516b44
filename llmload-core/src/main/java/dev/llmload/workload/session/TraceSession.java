package dev.llmload.workload.session;

import dev.llmload.record.SessionTurn;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * One session of a session trace ({@link TraceSessions}) or of synthetic agent sessions
 * ({@link AgenticSessions}): its turns' new inputs, answer lengths, pauses and timestamps come
 * from the file or were drawn; the history is what was really sent and answered. A
 * subagent starts from its parent's history up to and including the answer it forks after.
 *
 * <p>Not thread-safe: a session is driven by one thread at a time, turn after turn.
 */
public final class TraceSession implements Session {

    private final TraceSessions.Spec spec;
    /** The session this one forked from; null for a root. */
    private final Long parentId;

    private final SyntheticPrompts prompts;
    private final long seed;
    private final SplittableRandom random;
    private final LongSupplier requestIndexes;
    private final List<ChatMessage> history;
    private int historyTokens;
    private int sent;

    TraceSession(
            TraceSessions.Spec spec,
            Long parentId,
            SyntheticPrompts prompts,
            long seed,
            LongSupplier requestIndexes,
            List<ChatMessage> history,
            int historyTokens) {
        this.spec = spec;
        this.parentId = parentId;
        this.prompts = prompts;
        this.seed = seed;
        // A function of the seed and the session alone, so that a session's text does not depend
        // on the order sessions run in.
        this.random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (spec.id() + 1)));
        this.requestIndexes = requestIndexes;
        this.history = new ArrayList<>(history);
        this.historyTokens = historyTokens;
    }

    @Override
    public long id() {
        return spec.id();
    }

    /** The session's name in the trace. */
    public String name() {
        return spec.name();
    }

    @Override
    public int turns() {
        return spec.treeTurns();
    }

    @Override
    public int turnsSent() {
        return sent;
    }

    @Override
    public boolean hasNextTurn() {
        return sent < spec.turns().size();
    }

    /** The next turn's tool wait and then its delay. */
    @Override
    public Duration thinkTimeBeforeNextTurn() {
        TraceSessions.Turn next = nextSpec();
        return Duration.ofNanos(next.toolWaitNanos() + next.delayNanos());
    }

    @Override
    public OptionalLong nextTurnNotBeforeNanos() {
        long at = nextSpec().notBeforeNanos();
        return at < 0 ? OptionalLong.empty() : OptionalLong.of(at);
    }

    @Override
    public RequestSpec firstTurn() {
        if (sent != 0) {
            throw new IllegalStateException("session " + spec.name() + " already started");
        }
        return turn();
    }

    @Override
    public RequestSpec nextTurn(String previousAnswer) {
        if (sent == 0) {
            throw new IllegalStateException("session " + spec.name() + " has not sent its first turn");
        }
        nextSpec();
        history.add(new ChatMessage("assistant", previousAnswer));
        historyTokens += prompts.tokenizer().count(previousAnswer);
        return turn();
    }

    @Override
    public List<Session> forks(String answer) {
        List<TraceSessions.Spec> children = spec.forksAfter(sent);
        if (children.isEmpty()) {
            return List.of();
        }
        List<ChatMessage> context = new ArrayList<>(history);
        context.add(new ChatMessage("assistant", answer));
        int contextTokens = historyTokens + prompts.tokenizer().count(answer);
        List<Session> forks = new ArrayList<>(children.size());
        for (TraceSessions.Spec child : children) {
            forks.add(new TraceSession(child, spec.id(), prompts, seed, requestIndexes, context, contextTokens));
        }
        return forks;
    }

    private TraceSessions.Turn nextSpec() {
        if (!hasNextTurn()) {
            throw new IllegalStateException("session " + spec.name() + " has no turn left");
        }
        return spec.turns().get(sent);
    }

    private RequestSpec turn() {
        TraceSessions.Turn turn = spec.turns().get(sent);
        String input = turn.prompt() != null ? turn.prompt() : prompts.generate(turn.inputTokens(), random);
        history.add(ChatMessage.user(input));
        historyTokens += turn.inputTokens();
        sent++;
        return new RequestSpec(
                requestIndexes.getAsLong(),
                history,
                historyTokens,
                turn.outputTokens(),
                new SessionTurn(spec.id(), sent, parentId));
    }
}
