package dev.llmload.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI dialect's decoder, message by message, on chunks written as vLLM and OpenAI send them
 * (reference/servers-wire-and-metrics.md §C): what it reports, in which order, with which time.
 */
class OpenAiDialectTest {

    private final Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "m", true, false, null));
    private final List<String> events = new ArrayList<>();
    private final ResponseDecoder decoder = dialect.newDecoder(new RecordingEvents(events));

    @Test
    void aRoleOnlyFirstChunkIsNoTokenEvent() {
        message(null, """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}""", 1);
        assertThat(events).isEmpty();
    }

    @Test
    void textOnEachChannelIsOneTokenEventAtTheReadThatCompletedIt() {
        message(null, """
                {"choices":[{"index":0,"delta":{"reasoning":"Let me think"},"finish_reason":null}]}""", 10);
        message(null, """
                {"choices":[{"index":0,"delta":{"reasoning_content":"Hm","content":"Hello"},"finish_reason":null}]}""", 20);
        message(null, """
                {"choices":[{"index":0,"text":" Paris","logprobs":null,"finish_reason":null}],"usage":null}""", 30);
        assertThat(events)
                .containsExactly(
                        "text content=null reasoning=Let me think at 10",
                        "text content=Hello reasoning=Hm at 20",
                        "text content= Paris reasoning=null at 30");
    }

    @Test
    void chunksHandedOverAsSlicesOfALargerReusedArrayGiveTheSameEvents() {
        byte[] shared = new byte[4 * 1024];
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        Messages.sendEmbedded(decoder, null, """
                {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}""", 5, shared, random);
        Messages.sendEmbedded(decoder, null, """
                {"choices":[{"index":0,"delta":{"reasoning_content":"Hm","content":"Hello"},"finish_reason":null}]}""", 20, shared, random);
        Messages.sendEmbedded(decoder, null, """
                {"choices":[{"index":0,"text":" Paris","finish_reason":"stop"}],"usage":null}""", 30, shared, random);
        Messages.sendEmbedded(decoder, null, """
                {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":28}}""", 31, shared, random);
        Messages.sendEmbedded(decoder, null, "[DONE]", 32, shared, random);
        assertThat(events)
                .containsExactly(
                        "text content=Hello reasoning=Hm at 20",
                        "text content= Paris reasoning=null at 30",
                        "finish stop",
                        "usage 12/28",
                        "end");
    }

    @Test
    void finishReasonUsageAndTheEndMarkerAreTheirOwnEvents() {
        message(null, """
                {"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop","stop_reason":null}]}""", 1);
        message(null, """
                {"choices":[],"usage":{"prompt_tokens":12,"total_tokens":40,"completion_tokens":28,"prompt_tokens_details":{"cached_tokens":0}}}""", 2);
        message(null, "[DONE]", 3);
        assertThat(events).containsExactly("finish stop", "usage 12/28", "end");
    }

    @Test
    void aUsageObjectWithoutCountsReportsThemAsMissing() {
        message(null, "{\"choices\":[],\"usage\":{\"total_tokens\":3}}", 1);
        assertThat(events).containsExactly("usage -1/-1");
    }

    @Test
    void anErrorObjectInsideTheStreamIsAnErrorEventWithItsCode() {
        message(null, """
                {"error":{"message":"engine died","type":"InternalServerError","code":500}}""", 1);
        assertThat(events).containsExactly("error engine died (code 500)");
    }

    @Test
    void aMalformedChunkReportsNothingAndSaysWhatItWas() {
        assertThatThrownBy(() -> message(null, "{\"choices\":[{\"delta\":{\"content\":\"oops\"", 1))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageStartingWith("not a valid JSON chunk: {\"choices\"");
        assertThatThrownBy(() -> message(null, "{\"choices\":[{\"delta\":{\"content\":\"x\"}}]} trailing", 2))
                .isInstanceOf(MalformedMessageException.class);
        assertThat(events).isEmpty();
        // The decoder is not left in a bad state by the chunk it could not read.
        message(null, "{\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}", 3);
        assertThat(events).containsExactly("text content=ok reasoning=null at 3");
    }

    @Test
    void aWholeBodyReportsItsAnswerAndUsageOrOnlyItsError() {
        byte[] answer = utf8("""
                {"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}""");
        decoder.body(answer, 42);
        assertThat(events).containsExactly("usage 5/2", "finish length", "text content=Hi there reasoning=null at 42");

        events.clear();
        dialect.newDecoder(new RecordingEvents(events)).body(utf8("""
                {"error":{"message":"bad model"},"choices":[{"message":{"content":"ignored"}}]}"""), 7);
        assertThat(events).containsExactly("error bad model");

        assertThatThrownBy(() -> decoder.body(utf8("<html>502</html>"), 1))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("not a valid JSON body: <html>502</html>");
    }

    @Test
    void theMessageOfAnErrorBodyOrNullForAnotherShape() {
        assertThat(dialect.errorMessage(utf8("{\"error\":{\"message\":\"model not found\",\"code\":\"404\"}}")))
                .isEqualTo("model not found (code 404)");
        assertThat(dialect.errorMessage(utf8("{\"object\":\"error\",\"detail\":\"x\"}")))
                .isNull();
        assertThat(dialect.errorMessage(utf8("<html>Service Unavailable</html>")))
                .isNull();
    }

    @Test
    void theSampleStreamCarriesTokenEventsAndEndsWithTheEndMarker() {
        byte[] sample = dialect.sampleStream();
        List<String> seen = new ArrayList<>();
        ResponseDecoder reader = dialect.newDecoder(new RecordingEvents(seen));
        new dev.llmload.http.sse.SseDecoder(reader::message).feed(sample, 0, sample.length, 5);
        assertThat(seen).filteredOn(e -> e.startsWith("text")).hasSize(3);
        assertThat(seen).last().isEqualTo("end");
    }

    private void message(String eventType, String data, long nanos) {
        Messages.send(decoder, eventType, data, nanos);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
