package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.protocol.Usage;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Embeddings and rerank over loopback: a whole JSON answer after a scripted pause is a success
 * with a latency and the server's input tokens, but no token events; an error body is
 * {@code stream_error}, a body of another shape {@code protocol}.
 */
@Tag("loopback")
class EmbeddingsLoopbackTest {

    private static final long PAUSE_MS = 80;

    private static FinishedRequest answer(ApiKind api, String body) throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(api, "scripted", false, false, null, 8, null, 0));
        List<ScriptedSseServer.Step> steps =
                List.of(new ScriptedSseServer.Step("", PAUSE_MS), new ScriptedSseServer.Step(body, 0));
        try (ScriptedSseServer server = new ScriptedSseServer(steps, null, "application/json");
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(server.url()), null, 1, Duration.ofSeconds(5), false)) {
            FinishedRequest finished =
                    TestRequest.send(client, dialect, Timeouts.defaults(), "embed", Duration.ofSeconds(20));
            assertThat(finished).isNotNull();
            assertThat(server.lastPath()).isEqualTo("/v1/" + api.cliName());
            return finished;
        }
    }

    @Test
    void anEmbeddingsAnswerIsALatencyAndInputTokensWithoutTokenEvents() throws Exception {
        FinishedRequest f = answer(ApiKind.EMBEDDINGS, """
                {"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.01,-0.02]}],"model":"e","usage":{"prompt_tokens":96,"total_tokens":96}}""");
        assertThat(f.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(f.streamed()).isFalse();
        assertThat(f.usage()).isEqualTo(new Usage(96, 0));
        assertThat(f.timings().tokenEventNanos()).isEmpty();
        assertThat((f.timings().endNanos() - f.timings().sentNanos()) / 1e6).isGreaterThanOrEqualTo(PAUSE_MS - 1.0);
    }

    @Test
    void aRerankAnswerCountsItsTotalTokens() throws Exception {
        FinishedRequest f = answer(ApiKind.RERANK, """
                {"id":"rerank-1","model":"r","usage":{"total_tokens":120},"results":[{"index":0,"document":{"text":"a"},"relevance_score":0.9}]}""");
        assertThat(f.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(f.usage()).isEqualTo(new Usage(120, 0));
    }

    @Test
    void anErrorBodyIsAStreamErrorAndAnotherShapeAProtocolFailure() throws Exception {
        FinishedRequest error =
                answer(ApiKind.EMBEDDINGS, "{\"object\":\"error\",\"error\":{\"message\":\"input too long\"}}");
        assertThat(error.outcome()).isEqualTo(Outcome.Failure.of(FailureClass.STREAM_ERROR, "input too long"));
        FinishedRequest other = answer(ApiKind.RERANK, "{\"scores\":[0.1]}");
        assertThat(other.outcome())
                .isInstanceOfSatisfying(
                        Outcome.Failure.class,
                        failure -> assertThat(failure.failureClass()).isEqualTo(FailureClass.PROTOCOL));
    }
}
