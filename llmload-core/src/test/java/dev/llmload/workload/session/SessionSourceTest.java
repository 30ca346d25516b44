package dev.llmload.workload.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionSourceTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
    private static final Tokenizer TOKENIZER = PROMPTS.tokenizer();
    private static final SessionPlan PLAN = new SessionPlan(
            new LengthDistribution.Fixed(3),
            new LengthDistribution.Fixed(40),
            new LengthDistribution.Fixed(20),
            new LengthDistribution.Uniform(500, 1500),
            8);

    @Test
    void historyGrowsWithUserTurnsAndActualAnswers() {
        Session session = new SessionSource(PLAN, PROMPTS, 1).nextSession();
        String answer1 = "Paris is the capital of France.";
        String answer2 = "Rome.";

        assertThat(session.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ZERO);
        RequestSpec first = session.firstTurn();
        assertThat(session.thinkTimeBeforeNextTurn()).isBetween(Duration.ofMillis(500), Duration.ofMillis(1500));
        RequestSpec second = session.nextTurn(answer1);
        RequestSpec third = session.nextTurn(answer2);

        assertThat(first.messages()).hasSize(1);
        assertThat(first.inputTokens()).isEqualTo(40);
        assertThat(second.messages()).extracting(ChatMessage::role).containsExactly("user", "assistant", "user");
        assertThat(second.messages().subList(0, 1)).isEqualTo(first.messages());
        assertThat(second.messages().get(1).content()).isEqualTo(answer1);
        assertThat(second.inputTokens()).isEqualTo(80 + TOKENIZER.count(answer1));
        assertThat(third.messages()).hasSize(5);
        assertThat(third.inputTokens()).isEqualTo(120 + TOKENIZER.count(answer1) + TOKENIZER.count(answer2));
        assertThat(third.maxOutputTokens()).isEqualTo(20);
        assertThat(session.hasNextTurn()).isFalse();
        assertThatThrownBy(() -> session.nextTurn("more")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void turnsMustStartWithTheFirst() {
        Session session = new SessionSource(PLAN, PROMPTS, 1).nextSession();

        assertThatThrownBy(() -> session.nextTurn("x")).isInstanceOf(IllegalStateException.class);
        session.firstTurn();
        assertThatThrownBy(session::firstTurn).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sessionsAreDeterministicAndIndexesUniqueAcrossSessions() {
        SessionPlan plan = new SessionPlan(
                new LengthDistribution.Uniform(1, 6),
                new LengthDistribution.Fixed(10),
                new LengthDistribution.Fixed(5),
                null,
                2);
        List<String> run1 = userMessages(new SessionSource(plan, PROMPTS, 9));
        List<String> run2 = userMessages(new SessionSource(plan, PROMPTS, 9));

        assertThat(run1).isEqualTo(run2).doesNotHaveDuplicates();
        SessionSource source = new SessionSource(plan, PROMPTS, 9);
        Session a = source.nextSession();
        Session b = source.nextSession();
        assertThat(List.of(a.firstTurn().index(), b.firstTurn().index())).containsExactly(0L, 1L);
        assertThat(source.contentHash()).isEqualTo(new SessionSource(plan, PROMPTS, 9).contentHash());
    }

    private static List<String> userMessages(SessionSource source) {
        List<String> texts = new ArrayList<>();
        for (int s = 0; s < 20; s++) {
            Session session = source.nextSession();
            assertThat(session.turns()).isBetween(1, 6);
            RequestSpec spec = session.firstTurn();
            while (true) {
                texts.add(spec.messages().getLast().content());
                if (!session.hasNextTurn()) {
                    break;
                }
                assertThat(session.thinkTimeBeforeNextTurn()).isZero();
                spec = session.nextTurn("ok");
            }
        }
        return texts;
    }
}
