package dev.llmload.workload.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgenticSessionsTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());

    private static SessionPlan plan(int turns) {
        return new SessionPlan(
                new LengthDistribution.Fixed(turns),
                new LengthDistribution.Fixed(30),
                new LengthDistribution.Fixed(8),
                new LengthDistribution.Fixed(250),
                4);
    }

    @Test
    void everySessionStartsWithTheSameSystemPromptAndWaitsForTheToolBetweenCalls() {
        AgenticSessions agents = new AgenticSessions(plan(3), 100, 0, null, PROMPTS, 5);
        Session a = agents.nextSession();
        Session b = agents.nextSession();

        RequestSpec a1 = a.firstTurn();
        RequestSpec b1 = b.firstTurn();
        assertThat(a1.messages()).extracting(ChatMessage::role).containsExactly("system", "user");
        assertThat(PROMPTS.tokenizer().count(a1.messages().get(0).content())).isEqualTo(100);
        assertThat(b1.messages().get(0)).isEqualTo(a1.messages().get(0));
        assertThat(b1.messages().get(1)).isNotEqualTo(a1.messages().get(1));
        assertThat(a1.inputTokens()).isEqualTo(130);
        assertThat(a.turns()).isEqualTo(3);
        assertThat(a.forks("done")).isEmpty();
        assertThat(a.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(250));
        RequestSpec a2 = a.nextTurn("done");
        assertThat(a2.messages()).extracting(ChatMessage::role).containsExactly("system", "user", "assistant", "user");
        assertThat(a2.inputTokens()).isEqualTo(130 + PROMPTS.tokenizer().count("done") + 30);
        assertThat(List.of(a.id(), b.id())).containsExactly(0L, 1L);
    }

    @Test
    void subagentsForkFromTheContextAndForkNoFurther() {
        AgenticSessions agents = new AgenticSessions(plan(3), 20, 1.0, new LengthDistribution.Fixed(2), PROMPTS, 5);
        Session root = agents.nextSession();
        // Forks after turns 1 and 2 (never after the last), two subagents of 3 turns each.
        assertThat(root.turns()).isEqualTo(3 + 4 * 3);
        RequestSpec first = root.firstTurn();
        List<Session> forks = root.forks("plan");
        assertThat(forks).extracting(Session::id).containsExactly(1L, 2L);
        Session sub = forks.get(0);
        assertThat(sub.turns()).isEqualTo(3);
        assertThat(sub.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ZERO);
        RequestSpec sub1 = sub.firstTurn();
        assertThat(sub1.messages().subList(0, 2)).isEqualTo(first.messages());
        assertThat(sub1.messages().get(2)).isEqualTo(new ChatMessage("assistant", "plan"));
        assertThat(sub1.messages()).hasSize(4);
        sub.nextTurn("a");
        assertThat(sub.forks("b")).isEmpty();
        // The next root is numbered after the first's four subagents.
        assertThat(agents.nextSession().id()).isEqualTo(5L);
    }

    @Test
    void forksFollowTheProbabilityAndTheSeed() {
        AgenticSessions agents = new AgenticSessions(plan(11), 0, 0.2, new LengthDistribution.Fixed(1), PROMPTS, 9);
        AgenticSessions again = new AgenticSessions(plan(11), 0, 0.2, new LengthDistribution.Fixed(1), PROMPTS, 9);
        int sessions = 500;
        long subagents = 0;
        for (int i = 0; i < sessions; i++) {
            Session session = agents.nextSession();
            assertThat(again.nextSession().turns()).isEqualTo(session.turns());
            subagents += (session.turns() - 11) / 11;
        }
        // 10 eligible calls a session at 0.2: 1000 expected, binomial sd = sqrt(5000 * 0.2 * 0.8) ≈ 28.
        assertThat(subagents).isBetween(1000L - 5 * 28, 1000L + 5 * 28);
        assertThat(agents.contentHash()).isEqualTo(again.contentHash());
        assertThat(new AgenticSessions(plan(11), 0, 0.3, new LengthDistribution.Fixed(1), PROMPTS, 9).contentHash())
                .isNotEqualTo(agents.contentHash());
    }
}
