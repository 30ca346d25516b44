package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.protocol.Usage;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.ServerTimings;
import dev.llmload.record.TextCounts;
import dev.llmload.record.TokenSource;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the recorder counts each token event's tokens: the server's own per-event counts where the
 * dialect gives them (SGLang), the local tokenizer where one is missing, and one per event where
 * the server's total confirms it; the server's timings pass through to the record.
 */
class RecorderTokenCountsTest {

    private static final RequestSpec SPEC = new RequestSpec(3, List.of(ChatMessage.user("hi")), 1, 16);

    private static FinishedRequest finished(List<String> texts, int[] serverCounts, Usage usage, ServerTimings server) {
        long[] times = new long[texts.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = 1_000 + i * 10;
        }
        RequestTimings timings = new RequestTimings(0, 0, 500, times[0], times[0], times[times.length - 1] + 5, times);
        TokenTexts eventTexts = TokenEventsTest.texts(texts);
        return new FinishedRequest(
                RequestFacts.of(SPEC),
                "r",
                false,
                timings,
                eventTexts,
                serverCounts,
                200,
                Outcome.SUCCESS,
                usage,
                "length",
                true,
                null,
                true,
                server);
    }

    private static RequestRecord record(FinishedRequest f) {
        Recorder recorder = new Recorder(null, Tokenizers.defaultTokenizer(), 0, r -> {}, () -> {});
        try {
            return recorder.toRecord(f);
        } finally {
            try {
                recorder.finish();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void theServersPerEventCountsStandAndTheTokenizerFillsAGap() {
        RequestRecord r = record(
                finished(List.of(" The", " sky is", " blue and green"), new int[] {1, 2, -1}, new Usage(7, 9), null));
        int tokenizerCount = Tokenizers.defaultTokenizer().count(" blue and green");
        assertThat(r.tokenEventCounts()).containsExactly(1, 2, tokenizerCount);
        assertThat(r.outputTokens()).isEqualTo(9);
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.SERVER);
    }

    @Test
    void withoutPerEventCountsAMatchingTotalMeansOnePerEvent() {
        RequestRecord r = record(finished(List.of(" The", " sky is"), null, new Usage(7, 2), null));
        assertThat(r.tokenEventCounts()).containsExactly(1, 1);
    }

    @Test
    void theServersTimingsReachTheRecord() {
        ServerTimings server = new ServerTimings(1, 2, 3, 4, 5);
        assertThat(record(finished(List.of("a"), null, new Usage(1, 1), server)).serverTimings())
                .isEqualTo(server);
    }

    @Test
    void wordsAndCharactersOfThePromptAndTheStreamedAnswer() {
        RequestSpec spec = new RequestSpec(
                4, List.of(new ChatMessage("system", "Be brief."), ChatMessage.user("Why is the sky blue?")), 12, 16);
        FinishedRequest f = finished(List.of(" Ray", "leigh scat", "tering."), null, new Usage(12, 3), null);
        RequestRecord r = record(new FinishedRequest(
                RequestFacts.of(spec),
                f.requestId(),
                false,
                f.timings(),
                f.tokenEventTexts(),
                null,
                200,
                Outcome.SUCCESS,
                f.usage(),
                "stop",
                true,
                null,
                true,
                null));
        // "Be brief." and "Why is the sky blue?": 2 + 5 words, 9 + 20 characters (each message on its own).
        // " Rayleigh scattering.": 2 words, 21 characters.
        assertThat(r.text()).isEqualTo(new TextCounts(7, 29, 2, 21));
    }

    @Test
    void tokensWithoutTextLeaveTheAnswersCountsUnknown() {
        // Output tokens the server counted, but no token event carried their text (a tool call's arguments).
        RequestTimings timings = new RequestTimings(0, 0, 500, -1, -1, 900, new long[0]);
        FinishedRequest f = new FinishedRequest(
                RequestFacts.of(SPEC),
                "r",
                false,
                timings,
                TokenTexts.none(),
                null,
                200,
                Outcome.SUCCESS,
                new Usage(7, 20),
                "tool_calls",
                true,
                null,
                true,
                null);
        RequestRecord r = record(f);
        assertThat(r.text()).isEqualTo(new TextCounts(1, 2, TextCounts.UNKNOWN, TextCounts.UNKNOWN));
        // An answer of no tokens is known to be empty.
        RequestRecord empty = record(new FinishedRequest(
                RequestFacts.of(SPEC),
                "r",
                false,
                timings,
                TokenTexts.none(),
                null,
                200,
                Outcome.SUCCESS,
                new Usage(7, 0),
                "stop",
                true,
                null,
                true,
                null));
        assertThat(empty.text()).isEqualTo(new TextCounts(1, 2, 0, 0));
    }
}
