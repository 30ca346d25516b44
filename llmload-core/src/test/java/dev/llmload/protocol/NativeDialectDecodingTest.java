package dev.llmload.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.http.sse.NdjsonDecoder;
import dev.llmload.http.sse.SseDecoder;
import dev.llmload.http.sse.StreamFramer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each native dialect's decoder on its server's documented stream ({@link DialectFixtures}): the
 * same events whether the stream arrives whole, split at any byte, or with CRLF line ends; its
 * error shape is an error event; hostile messages (not JSON, wrong types, oversized) are
 * {@link MalformedMessageException}s that report nothing, never another exception.
 */
class NativeDialectDecodingTest {

    static Stream<DialectFixtures> dialects() {
        return DialectFixtures.STREAMING.stream();
    }

    /** Frames {@code parts} (each read at its index as the time) and decodes them with a fresh decoder. */
    private static List<String> decode(DialectFixtures fixture, byte[]... parts) {
        List<String> events = new ArrayList<>();
        Dialect dialect = fixture.dialect();
        ResponseDecoder decoder = dialect.newDecoder(new RecordingEvents(events));
        StreamFramer framer = dialect.streamFraming() == Framing.NDJSON
                ? new NdjsonDecoder(decoder::message)
                : new SseDecoder(decoder::message);
        for (int i = 0; i < parts.length; i++) {
            framer.feed(io.netty.buffer.Unpooled.wrappedBuffer(parts[i]), i + 1);
        }
        framer.endOfStream();
        return events;
    }

    private static List<String> withoutTimes(List<String> events) {
        return events.stream().map(e -> e.replaceAll(" at \\d+$", "")).toList();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void theWholeStreamGivesTheDocumentedEvents(DialectFixtures fixture) {
        assertThat(withoutTimes(decode(fixture, utf8(fixture.stream())))).containsExactlyElementsOf(fixture.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void aStreamSplitAtAnyByteGivesTheSameEventsTimedByTheReadThatCompletedThem(DialectFixtures fixture) {
        byte[] bytes = utf8(fixture.stream());
        int firstTextEnd = firstTextEnd(fixture);
        for (int at = 0; at <= bytes.length; at++) {
            byte[] head = java.util.Arrays.copyOfRange(bytes, 0, at);
            byte[] tail = java.util.Arrays.copyOfRange(bytes, at, bytes.length);
            List<String> events = decode(fixture, head, tail);
            assertThat(withoutTimes(events)).as("split at byte %d", at).containsExactlyElementsOf(fixture.expected());
            // The first token event is timed by the read that brought the last byte of its message.
            assertThat(events.stream()
                            .filter(e -> e.startsWith("text"))
                            .findFirst()
                            .orElseThrow())
                    .as("split at byte %d", at)
                    .endsWith(firstTextEnd <= at ? " at 1" : " at 2");
        }
    }

    /** Where the message holding the first token event ends, in bytes from the stream's start. */
    private static int firstTextEnd(DialectFixtures fixture) {
        int end = 0;
        for (int k = 0; k < fixture.messages().size(); k++) {
            end += utf8(fixture.messages().get(k)).length;
            String upTo = String.join("", fixture.messages().subList(0, k + 1));
            if (decode(fixture, utf8(upTo)).stream().anyMatch(e -> e.startsWith("text"))) {
                return end;
            }
        }
        throw new IllegalStateException("no token event in the fixture");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void messagesHandedOverAsSlicesOfALargerReusedArrayGiveTheSameEvents(DialectFixtures fixture) {
        Dialect dialect = fixture.dialect();
        List<String[]> framed = new ArrayList<>();
        StreamFramer.Listener keep = (type, data, offset, length, nanos) ->
                framed.add(new String[] {type, new String(data, offset, length, StandardCharsets.UTF_8)});
        StreamFramer framer =
                dialect.streamFraming() == Framing.NDJSON ? new NdjsonDecoder(keep) : new SseDecoder(keep);
        framer.feed(io.netty.buffer.Unpooled.wrappedBuffer(utf8(fixture.stream())), 0);
        framer.endOfStream();

        List<String> events = new ArrayList<>();
        ResponseDecoder decoder = dialect.newDecoder(new RecordingEvents(events));
        byte[] shared = new byte[8 * 1024];
        java.util.SplittableRandom random =
                new java.util.SplittableRandom(fixture.api().ordinal());
        for (String[] message : framed) {
            Messages.sendEmbedded(decoder, message[0], message[1], 1, shared, random);
        }
        assertThat(withoutTimes(events)).containsExactlyElementsOf(fixture.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void crlfLineEndsGiveTheSameEvents(DialectFixtures fixture) {
        byte[] crlf = utf8(fixture.stream().replace("\n", "\r\n"));
        assertThat(withoutTimes(decode(fixture, crlf))).containsExactlyElementsOf(fixture.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void theDialectsOwnErrorShapeIsAnErrorEventWithItsMessage(DialectFixtures fixture) {
        List<String> events = decode(fixture, utf8(fixture.messages().getFirst() + fixture.errorTail()));
        assertThat(events).last().isEqualTo(fixture.errorEvent());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void hostileMessagesAreMalformedAndReportNothing(DialectFixtures fixture) {
        List<String> events = new ArrayList<>();
        ResponseDecoder decoder = fixture.dialect().newDecoder(new RecordingEvents(events));
        String typeForNamed = fixture.api() == ApiKind.ANTHROPIC
                ? "content_block_delta"
                : fixture.api() == ApiKind.RESPONSES ? "response.output_text.delta" : null;
        List<String> hostile = new ArrayList<>(List.of(
                "<html><body>502 Bad Gateway</body></html>",
                "{\"text\":\"unterminated",
                "[1,2,3]",
                "42",
                "{\"a\":1} {\"b\":2}",
                "x".repeat(2_000_000)));
        // The dialect's own fields with the wrong types.
        hostile.add(
                switch (fixture.api()) {
                    case TGI -> "{\"index\":1,\"token\":{\"id\":1,\"text\":17,\"special\":false}}";
                    case TRITON -> "{\"text_output\":[\"a\"]}";
                    case OLLAMA, OLLAMA_CHAT -> "{\"response\":\"a\",\"message\":{\"content\":\"a\"},\"done\":\"no\"}";
                    case LLAMACPP -> "{\"content\":{\"text\":\"a\"},\"stop\":false}";
                    case SGLANG -> "{\"text\":5,\"meta_info\":{\"completion_tokens\":\"1\"}}";
                    case ANTHROPIC -> "{\"type\":\"content_block_delta\",\"delta\":[\"text_delta\"]}";
                    case RESPONSES -> "{\"delta\":\"a\"}";
                    default -> throw new IllegalStateException();
                });
        for (String message : hostile) {
            String type = message.startsWith("{\"delta\":\"a\"}") ? null : typeForNamed;
            if (fixture.api() == ApiKind.RESPONSES && message.equals("{\"delta\":\"a\"}")) {
                // A Responses event without a type, named or in its data, cannot be placed.
                assertThatThrownBy(() -> Messages.send(decoder, null, message, 1))
                        .isInstanceOf(MalformedMessageException.class);
                continue;
            }
            assertThatThrownBy(() -> Messages.send(decoder, type, message, 1))
                    .as("message %.60s", message)
                    .isInstanceOf(MalformedMessageException.class)
                    .satisfies(
                            e -> assertThat(e.getMessage()).hasSizeLessThan(300).doesNotContain("\n"));
        }
        assertThat(events).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dialects")
    void theSampleStreamIsReadAsTheDialectMeansIt(DialectFixtures fixture) {
        Dialect dialect = fixture.dialect();
        List<String> events = decode(fixture, dialect.sampleStream());
        assertThat(events).anyMatch(e -> e.startsWith("text"));
        if (dialect.endMarker() != null) {
            assertThat(events).last().isEqualTo("end");
        }
        assertThat(events).noneMatch(e -> e.startsWith("error"));
    }
}
