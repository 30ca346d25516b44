package dev.llmload.workload.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.record.SessionTurn;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.Fixtures;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * AIPerf's session formats read into llmload's sessions
 * (src/test/resources/dev/llmload/workload/aiperf-mooncake-sessions.jsonl and aiperf-multi-turn.jsonl).
 */
class AiperfTraceLinesTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
    private static final Path MOONCAKE = Fixtures.path("aiperf-mooncake-sessions.jsonl");
    private static final Path MULTI_TURN = Fixtures.path("aiperf-multi-turn.jsonl");
    private static final LengthDistribution SEVEN = new LengthDistribution.Fixed(7);

    private static TraceSessions open(Path file, String format) {
        return new TraceSessions(file, format, PROMPTS, SEVEN, 1, 1.0);
    }

    @Test
    void mooncakeRecordsAreGroupedIntoSessionsInFileOrder() {
        TraceSessions trace = open(MOONCAKE, TraceSessions.AIPERF_MOONCAKE);

        // chat-a (3 records), chat-b (2) and the record without a session_id (1).
        assertThat(trace.sessions()).isEqualTo(3);
        assertThat(trace.turns()).isEqualTo(6);
        assertThat(trace.startOffsetsNanos()).containsExactly(0L, 50_000_000L, 80_000_000L);
        assertThat(TraceSessions.hasSessionIds(MOONCAKE)).isTrue();
        assertThat(TraceSessions.hasSessionIds(Fixtures.path("trace.jsonl"))).isFalse();

        Session a = trace.nextSession();
        RequestSpec first = a.firstTurn();
        assertThat(first.inputTokens()).isEqualTo(30);
        assertThat(first.maxOutputTokens()).isEqualTo(4);
        assertThat(first.session()).isEqualTo(new SessionTurn(0, 1));
        // "delay" is milliseconds after the previous answer; no absolute time.
        assertThat(a.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(20));
        assertThat(a.nextTurnNotBeforeNanos()).isEmpty();
        RequestSpec second = a.nextTurn("four words of answer");
        assertThat(second.messages()).hasSize(3);
        assertThat(second.messages().get(1)).isEqualTo(new ChatMessage("assistant", "four words of answer"));
        assertThat(second.inputTokens()).isEqualTo(30 + PROMPTS.tokenizer().count("four words of answer") + 10);
        assertThat(a.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(35));

        Session b = trace.nextSession();
        RequestSpec text = b.firstTurn();
        assertThat(text.messages()).containsExactly(ChatMessage.user("Summarise the design notes in three lines."));
        // A later record's "timestamp" is a time it is not sent before, counted from the first record.
        assertThat(b.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ZERO);
        assertThat(b.nextTurnNotBeforeNanos()).isEqualTo(OptionalLong.of(300_000_000L));

        Session alone = trace.nextSession();
        assertThat(alone.firstTurn().inputTokens()).isEqualTo(12);
        assertThat(alone.hasNextTurn()).isFalse();
    }

    @Test
    void multiTurnLinesAreSessionsWithTheirTextDelaysAndTimestamps() {
        TraceSessions trace = open(MULTI_TURN, TraceSessions.AIPERF_MULTI_TURN);

        assertThat(trace.sessions()).isEqualTo(2);
        assertThat(trace.turns()).isEqualTo(5);
        assertThat(trace.startOffsetsNanos()).containsExactly(0L, 40_000_000L);

        Session support = trace.nextSession();
        RequestSpec first = support.firstTurn();
        assertThat(first.messages()).containsExactly(ChatMessage.user("My build fails with a missing symbol."));
        assertThat(first.inputTokens()).isEqualTo(PROMPTS.tokenizer().count("My build fails with a missing symbol."));
        assertThat(first.maxOutputTokens()).isEqualTo(4);
        assertThat(support.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(25));
        support.nextTurn("ok");
        assertThat(support.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(10));

        Session review = trace.nextSession();
        assertThat(review.firstTurn().maxOutputTokens()).isEqualTo(5);
        assertThat(review.nextTurnNotBeforeNanos()).isEqualTo(OptionalLong.of(200_000_000L));
        // No output_length: the run's --output-tokens.
        assertThat(review.nextTurn("fine").maxOutputTokens()).isEqualTo(7);
    }

    @Test
    void speedDividesDelaysAndTimestamps() {
        TraceSessions trace = new TraceSessions(MOONCAKE, TraceSessions.AIPERF_MOONCAKE, PROMPTS, SEVEN, 1, 2.0);
        Session a = trace.nextSession();
        a.firstTurn();
        assertThat(a.thinkTimeBeforeNextTurn()).isEqualTo(Duration.ofMillis(10));
        Session b = trace.nextSession();
        b.firstTurn();
        assertThat(b.nextTurnNotBeforeNanos()).isEqualTo(OptionalLong.of(150_000_000L));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"session_id": "b", "delay": 5, "input_length": 5, "output_length": 2}                        | "delay" needs a turn before it
            {"session_id": "a", "delay": 5, "timestamp": 9, "input_length": 5, "output_length": 2}        | give "timestamp" or "delay", not both
            {"session_id": "a", "input_length": 5}                                                        | needs "output_length"
            {"session_id": "a", "output_length": 2}                                                       | needs "input_length"
            {"session_id": "a", "input_length": 5, "text_input": "hi", "output_length": 2}                | give "input_length" or "text_input", not both
            {"session_id": "a", "messages": [{"role": "user", "content": "hi"}], "output_length": 2}      | "messages" is not replayed
            {"session_id": "a", "delay": -3, "input_length": 5, "output_length": 2}                       | "delay" must be milliseconds ≥ 0, got -3
            {"session_id": ["a"], "input_length": 5, "output_length": 2}                                  | "session_id" must be a non-empty string or a whole number
            {"session_id": "a", "input_length": 5, "output_length": 2                                     | not valid JSON
            """)
    void aBadMooncakeRecordFailsWithItsLine(String second, String problem, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(
                file,
                "{\"session_id\": \"a\", \"timestamp\": 0, \"input_length\": 5, \"output_length\": 2}\n" + second);

        assertThatThrownBy(() -> open(file, TraceSessions.AIPERF_MOONCAKE))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ":2: ")
                .hasMessageContaining(problem)
                .hasMessageNotContaining("\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"session_id": "a", "turns": [{"text": "hi"}]}                                           | session 'a' is already on line 1
            {"session_id": "b"}                                                                      | needs "turns", a non-empty array
            {"session_id": "b", "turns": []}                                                         | needs "turns", a non-empty array
            {"session_id": "b", "turns": [{"text": "hi"}, {"output_length": 2}]}                     | turn 2: needs "text"
            {"session_id": "b", "turns": [{"text": "hi", "delay": 10}]}                              | a session's first turn starts at "timestamp"; "delay" needs a turn before it
            {"session_id": "b", "turns": [{"text": "hi"}, {"text": "x", "delay": 1, "timestamp": 2}]} | turn 2: give "timestamp" or "delay", not both
            {"session_id": "b", "turns": [{"role": "system", "text": "be terse"}]}                   | turn 1: role "system" is not replayed
            {"session_id": "b", "turns": [{"text": "hi", "image": "cat.png"}]}                       | turn 1: "image" is not sent
            {"session_id": "b", "turns": [{"text": "hi", "output_length": 0}]}                       | turn 1: "output_length" must be a whole number ≥ 1, got 0
            {"session_id": "b", "turns": ["hi"]}                                                     | turn 1: expected a JSON object
            """)
    void aBadMultiTurnLineFailsWithItsLine(String second, String problem, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"session_id\": \"a\", \"turns\": [{\"text\": \"hello\"}]}\n" + second);

        assertThatThrownBy(() -> open(file, TraceSessions.AIPERF_MULTI_TURN))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ":2: ")
                .hasMessageContaining(problem)
                .hasMessageNotContaining("\n");
    }

    @Test
    void withoutARunLengthAMultiTurnTurnNeedsItsOutputLength(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("no-length.jsonl");
        Files.writeString(file, "{\"turns\": [{\"text\": \"hello\"}]}\n");

        assertThatThrownBy(() -> new TraceSessions(file, TraceSessions.AIPERF_MULTI_TURN, PROMPTS, null, 1, 1.0))
                .isInstanceOf(DatasetException.class)
                .hasMessage(file + ":1: turn 1: needs \"output_length\"");
    }
}
