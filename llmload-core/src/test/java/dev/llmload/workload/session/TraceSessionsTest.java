package dev.llmload.workload.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.record.SessionTurn;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.Fixtures;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TraceSessionsTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
    private static final Tokenizer TOKENIZER = PROMPTS.tokenizer();
    private static final Path FIXTURE = Fixtures.path("agent-sessions.jsonl");

    @Test
    void readsSessionsTurnsAndRootStarts() {
        TraceSessions trace = new TraceSessions(FIXTURE, PROMPTS, 1, 1.0);

        assertThat(trace.sessions()).isEqualTo(4);
        assertThat(trace.turns()).isEqualTo(8);
        assertThat(trace.startOffsetsNanos()).containsExactly(0L, 100_000_000L);
        Session main = trace.nextSession();
        Session review = trace.nextSession();
        // main's own three turns, explore's two and test's one.
        assertThat(main.turns()).isEqualTo(6);
        assertThat(review.turns()).isEqualTo(2);
        assertThatThrownBy(trace::nextSession).isInstanceOf(java.util.NoSuchElementException.class);
        assertThat(TraceSessions.detect(FIXTURE)).isTrue();
        assertThat(TraceSessions.detect(Fixtures.path("trace.jsonl"))).isFalse();
        assertThat(TraceSessions.detect(Fixtures.path("trace.csv"))).isFalse();
    }

    @Test
    void turnsCarryTheHistoryAndForksStartFromTheParentsAnswer() {
        Session main = new TraceSessions(FIXTURE, PROMPTS, 1, 1.0).nextSession();

        RequestSpec first = main.firstTurn();
        assertThat(first.messages()).hasSize(1);
        assertThat(first.inputTokens()).isEqualTo(40);
        assertThat(first.maxOutputTokens()).isEqualTo(4);
        assertThat(first.session()).isEqualTo(new SessionTurn(0, 1));
        assertThat(main.forks("one two")).isEmpty();
        // Tool wait 30 ms and then the delay of 10 ms.
        assertThat(main.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(40));
        assertThat(main.nextTurnNotBeforeNanos()).isEmpty();

        String answer1 = "one two";
        RequestSpec second = main.nextTurn(answer1);
        assertThat(second.messages()).extracting(ChatMessage::role).containsExactly("user", "assistant", "user");
        assertThat(second.inputTokens()).isEqualTo(40 + TOKENIZER.count(answer1) + 12);

        String answer2 = "three four five";
        List<Session> forks = main.forks(answer2);
        assertThat(forks).extracting(Session::id).containsExactly(1L, 2L);
        Session explore = forks.get(0);
        Session test = forks.get(1);
        assertThat(explore.turns()).isEqualTo(2);
        assertThat(explore.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(5));
        assertThat(test.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ZERO);
        RequestSpec exploreFirst = explore.firstTurn();
        // The parent's three messages, its answer, and the fork's own input.
        assertThat(exploreFirst.messages().subList(0, 3)).isEqualTo(second.messages());
        assertThat(exploreFirst.messages().get(3)).isEqualTo(new ChatMessage("assistant", answer2));
        assertThat(exploreFirst.messages()).hasSize(5);
        assertThat(exploreFirst.inputTokens()).isEqualTo(second.inputTokens() + TOKENIZER.count(answer2) + 20);
        assertThat(exploreFirst.session()).isEqualTo(new SessionTurn(1, 1, 0L));
        assertThat(explore.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(20));
        assertThat(explore.nextTurn("six").messages()).hasSize(7);
        assertThat(explore.hasNextTurn()).isFalse();
        assertThat(test.firstTurn().inputTokens()).isEqualTo(second.inputTokens() + TOKENIZER.count(answer2) + 16);

        // The parent goes on from its own history, untouched by its forks.
        assertThat(main.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(15));
        RequestSpec third = main.nextTurn(answer2);
        assertThat(third.messages()).hasSize(5);
        assertThat(third.inputTokens()).isEqualTo(second.inputTokens() + TOKENIZER.count(answer2) + 10);
        assertThat(main.hasNextTurn()).isFalse();
        // Request indexes are unique over the whole trace, in the order turns were made.
        assertThat(List.of(first.index(), second.index(), exploreFirst.index(), third.index()))
                .doesNotHaveDuplicates();
    }

    @Test
    void aFixedPromptIsSentAsItIsAndTimestampsAndPausesFollowTheSpeed() {
        TraceSessions trace = new TraceSessions(FIXTURE, PROMPTS, 1, 2.0);
        trace.nextSession();
        Session review = trace.nextSession();

        String text = "Review the change in src/Main.java for off-by-one errors.";
        RequestSpec first = review.firstTurn();
        assertThat(first.messages()).containsExactly(ChatMessage.user(text));
        assertThat(first.inputTokens()).isEqualTo(TOKENIZER.count(text));
        // 400 ms after the first root's start, replayed twice as fast.
        assertThat(review.nextTurnNotBeforeNanos()).isEqualTo(OptionalLong.of(200_000_000L));

        Session main = new TraceSessions(FIXTURE, PROMPTS, 1, 2.0).nextSession();
        main.firstTurn();
        assertThat(main.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(20));
    }

    @Test
    void theSameSeedMakesTheSameTextWhateverTheOrder() {
        Session a = new TraceSessions(FIXTURE, PROMPTS, 7, 1.0).nextSession();
        TraceSessions other = new TraceSessions(FIXTURE, PROMPTS, 7, 1.0);
        Session b = other.nextSession();

        assertThat(b.firstTurn().messages()).isEqualTo(a.firstTurn().messages());
        assertThat(new TraceSessions(FIXTURE, PROMPTS, 8, 1.0)
                        .nextSession()
                        .firstTurn()
                        .messages())
                .isNotEqualTo(a.nextTurn("x").messages().subList(0, 1));
        assertThat(other.contentHash()).isEqualTo(new TraceSessions(FIXTURE, PROMPTS, 8, 1.0).contentHash());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"session_id": "a", "turn": 2, "input_tokens": 5, "output_tokens": 2}                                                   | 1 | session 'a' starts with turn 2, not 1
            {"session_id": "b", "parent_session": "x", "parent_turn": 1, "turn": 1, "input_tokens": 5, "output_tokens": 2}          | 2 | parent session 'x' is not on an earlier line
            {"session_id": "b", "parent_session": "a", "parent_turn": 3, "turn": 1, "input_tokens": 5, "output_tokens": 2}          | 2 | parent_turn 3 but session 'a' has 1 turn
            {"session_id": "b", "parent_session": "a", "turn": 1, "input_tokens": 5, "output_tokens": 2}                            | 2 | "parent_session" needs "parent_turn"
            {"session_id": "a", "turn": 3, "input_tokens": 5, "output_tokens": 2}                                                   | 2 | session 'a' turn 3 follows turn 1
            {"session_id": "a", "turn": 2, "delay_ms": 5, "timestamp_ms": 9, "input_tokens": 5, "output_tokens": 2}                 | 2 | give "timestamp_ms" or "delay_ms", not both
            {"session_id": "c", "turn": 1, "delay_ms": 5, "input_tokens": 5, "output_tokens": 2}                                    | 2 | "delay_ms" needs a turn before it
            {"session_id": "a", "turn": 2, "input_tokens": 5, "output_tokens": 0}                                                   | 2 | "output_tokens" must be a whole number ≥ 1, got 0
            {"session_id": "a", "turn": 2, "tool_wait_ms": -1, "input_tokens": 5, "output_tokens": 2}                               | 2 | "tool_wait_ms" must be milliseconds ≥ 0, got -1
            {"session_id": "a", "turn": 2, "output_tokens": 2}                                                                      | 2 | needs "input_tokens"
            {"session_id": "a", "turn": 2, "prompt": "hi", "input_tokens": 1, "output_tokens": 2}                                   | 2 | give "input_tokens" or "prompt", not both
            {"turn": 2, "input_tokens": 5, "output_tokens": 2}                                                                      | 2 | needs "session_id"
            {"session_id": "a", "turn": 2, "input_tokens": 5, "output_tokens": 2                                                    | 2 | not valid JSON
            """)
    void aBadLineFailsWithTheFileAndItsNumber(String second, int line, String problem, @TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("bad.jsonl");
        String first = "{\"session_id\": \"a\", \"turn\": 1, \"input_tokens\": 5, \"output_tokens\": 2}";
        Files.writeString(file, (line == 1 ? second : first + "\n" + second) + "\n");

        assertThatThrownBy(() -> new TraceSessions(file, PROMPTS, 1, 1.0))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ":" + line + ": ")
                .hasMessageContaining(problem)
                .hasMessageNotContaining("\n");
    }

    @Test
    void anEmptyTraceIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("empty.jsonl");
        Files.writeString(file, "\n\n");

        assertThatThrownBy(() -> new TraceSessions(file, PROMPTS, 1, 1.0))
                .isInstanceOf(DatasetException.class)
                .hasMessage(file + ": empty trace");
    }
}
