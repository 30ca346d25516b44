package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Whether a stream carried its dialect's end marker travels with the finished request, over a
 * real loopback exchange; a stream that ends without it was cut short and fails as {@code protocol},
 * keeping what it measured.
 */
@Tag("loopback")
class EndMarkerTest {

    private static final String TOKEN = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n";
    private static final String USAGE =
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}\n\n";

    private static FinishedRequest answer(List<ScriptedSseServer.Step> steps) throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "scripted", true, false, null));
        try (ScriptedSseServer server = new ScriptedSseServer(steps);
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(server.url()), null, 1, Duration.ofSeconds(5), false)) {
            FinishedRequest finished =
                    TestRequest.send(client, dialect, Timeouts.defaults(), "end-marker", Duration.ofSeconds(10));
            assertThat(finished).as("the request finished in time").isNotNull();
            return finished;
        }
    }

    @Test
    void aStreamThatEndsWithDoneSaysSo() throws Exception {
        FinishedRequest finished = answer(List.of(
                new ScriptedSseServer.Step(TOKEN, 0),
                new ScriptedSseServer.Step(USAGE, 0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0)));

        assertThat(finished.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(finished.endMarkerSeen()).isTrue();
        assertThat(finished.timings().tokenEventNanos()).hasSize(1);
        // [DONE] is no token event and does not move the end of the answer's text.
        assertThat(finished.timings().lastTokenNanos())
                .isLessThanOrEqualTo(finished.timings().endNanos());
    }

    @Test
    void aStreamCutBeforeDoneIsAProtocolFailureThatKeepsItsTimings() throws Exception {
        FinishedRequest finished =
                answer(List.of(new ScriptedSseServer.Step(TOKEN, 0), new ScriptedSseServer.Step(USAGE, 0)));

        assertThat(finished.outcome()).isInstanceOfSatisfying(Outcome.Failure.class, failure -> {
            assertThat(failure.failureClass()).isEqualTo(FailureClass.PROTOCOL);
            assertThat(failure.message()).isEqualTo("the stream ended without data: [DONE] (after 1 token events)");
        });
        assertThat(finished.endMarkerSeen()).isFalse();
        assertThat(finished.timings().tokenEventNanos()).hasSize(1);
        assertThat(finished.usage().completionTokens()).isEqualTo(1);
    }
}
