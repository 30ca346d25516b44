package dev.llmload.http.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SseDecoderTest {

    record Event(String type, String data) {}

    /** The streams of reference/servers-wire-and-metrics.md §C, written with LF line endings. */
    private static final class Examples {
        static final String C2_1 = """
                {"id":"cmpl-3f2a","object":"text_completion","created":1733000000,"model":"m","choices":[{"index":0,"text":" Paris","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}""";
        static final String C2_2 = """
                {"id":"cmpl-3f2a","object":"text_completion","created":1733000000,"model":"m","choices":[{"index":0,"text":".","logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":null}""";
        static final String C2_3 = """
                {"id":"cmpl-3f2a","object":"text_completion","created":1733000000,"model":"m","choices":[],"usage":{"prompt_tokens":7,"total_tokens":9,"completion_tokens":2}}""";

        static final String C3_1 = """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","created":1733000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}""";
        static final String C3_2 = """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","created":1733000000,"model":"m","choices":[{"index":0,"delta":{"reasoning":"Let me think"},"logprobs":null,"finish_reason":null}]}""";
        static final String C3_3 = """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","created":1733000000,"model":"m","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}]}""";
        static final String C3_4 = """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","created":1733000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null}]}""";
        static final String C3_5 = """
                {"id":"chatcmpl-9b","object":"chat.completion.chunk","created":1733000000,"model":"m","choices":[],"usage":{"prompt_tokens":12,"total_tokens":40,"completion_tokens":28,"prompt_tokens_details":{"cached_tokens":0}}}""";

        static final String C4_1 = """
                {"index":1,"token":{"id":578,"text":" The","logprob":-0.17,"special":false},"generated_text":null,"details":null}""";
        static final String C4_2 = """
                {"index":2,"token":{"id":3363,"text":" sky","logprob":-0.05,"special":false},"generated_text":null,"details":null}""";
        static final String C4_3 = """
                {"index":20,"token":{"id":13,"text":".","logprob":-0.41,"special":false},"generated_text":"The sky is blue because ...","details":{"finish_reason":"length","generated_tokens":20,"seed":null,"input_length":7}}""";

        static final String C6_1 = """
                {"index":0,"content":" Paris","tokens":[],"stop":false,"id_slot":-1,"tokens_predicted":1,"tokens_evaluated":7}""";
        static final String C6_2 = """
                {"index":0,"content":"","tokens":[],"id_slot":0,"stop":true,"model":"gpt-3.5-turbo","tokens_predicted":12,"tokens_evaluated":7,"generation_settings":{…},"prompt":"…","has_new_line":false,"truncated":false,"stop_type":"eos","stopping_word":"","tokens_cached":18,"timings":{"cache_n":0,"prompt_n":7,"prompt_ms":41.2,"prompt_per_token_ms":5.9,"prompt_per_second":169.9,"predicted_n":12,"predicted_ms":180.3,"predicted_per_token_ms":15.0,"predicted_per_second":66.6}}""";

        static final String C7_1 = """
                {"model_name":"ensemble","model_version":"1","sequence_end":false,"sequence_id":0,"sequence_start":false,"text_output":" Machine"}""";
        static final String C7_2 = """
                {"model_name":"ensemble","model_version":"1","sequence_end":false,"sequence_id":0,"sequence_start":false,"text_output":" learning"}""";

        static final String C8_1 = """
                {"type":"message_start","message":{"id":"msg_01…","type":"message","role":"assistant","content":[],"model":"claude-…","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}""";
        static final String C8_2 = """
                {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}""";
        static final String C8_3 = """
                {"type": "ping"}""";
        static final String C8_4 = """
                {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}""";
        static final String C8_5 = """
                {"type":"content_block_stop","index":0}""";
        static final String C8_6 = """
                {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}""";
        static final String C8_7 = """
                {"type":"message_stop"}""";
    }

    static Stream<Arguments> referenceStreams() {
        return Stream.of(
                Arguments.of(
                        "C.2 completions",
                        "data: " + Examples.C2_1 + "\n\n"
                                + "data: " + Examples.C2_2 + "\n\n"
                                + "data: " + Examples.C2_3 + "\n\n"
                                + "data: [DONE]\n\n",
                        List.of(
                                new Event(null, Examples.C2_1), new Event(null, Examples.C2_2),
                                new Event(null, Examples.C2_3), new Event(null, "[DONE]"))),
                Arguments.of(
                        "C.3 chat",
                        "data: " + Examples.C3_1 + "\n\n"
                                + "data: " + Examples.C3_2 + "\n\n"
                                + "data: " + Examples.C3_3 + "\n\n"
                                + "data: " + Examples.C3_4 + "\n\n"
                                + "data: " + Examples.C3_5 + "\n\n"
                                + "data: [DONE]\n\n",
                        List.of(
                                new Event(null, Examples.C3_1), new Event(null, Examples.C3_2),
                                new Event(null, Examples.C3_3), new Event(null, Examples.C3_4),
                                new Event(null, Examples.C3_5), new Event(null, "[DONE]"))),
                Arguments.of(
                        "C.4 TGI, no space after the colon",
                        "data:" + Examples.C4_1 + "\n\n"
                                + "data:" + Examples.C4_2 + "\n\n"
                                + "data:" + Examples.C4_3 + "\n\n",
                        List.of(
                                new Event(null, Examples.C4_1),
                                new Event(null, Examples.C4_2),
                                new Event(null, Examples.C4_3))),
                Arguments.of(
                        "C.6 llama.cpp",
                        "data: " + Examples.C6_1 + "\n\n" + "data: " + Examples.C6_2 + "\n\n",
                        List.of(new Event(null, Examples.C6_1), new Event(null, Examples.C6_2))),
                Arguments.of(
                        "C.7 Triton",
                        "data: " + Examples.C7_1 + "\n\n" + "data: " + Examples.C7_2 + "\n\n",
                        List.of(new Event(null, Examples.C7_1), new Event(null, Examples.C7_2))),
                Arguments.of(
                        "C.8 Anthropic named events",
                        "event: message_start\ndata: " + Examples.C8_1 + "\n\n"
                                + "event: content_block_start\ndata: " + Examples.C8_2 + "\n\n"
                                + "event: ping\ndata: " + Examples.C8_3 + "\n\n"
                                + "event: content_block_delta\ndata: " + Examples.C8_4 + "\n\n"
                                + "event: content_block_stop\ndata: " + Examples.C8_5 + "\n\n"
                                + "event: message_delta\ndata: " + Examples.C8_6 + "\n\n"
                                + "event: message_stop\ndata: " + Examples.C8_7 + "\n\n",
                        List.of(
                                new Event("message_start", Examples.C8_1),
                                new Event("content_block_start", Examples.C8_2),
                                new Event("ping", Examples.C8_3),
                                new Event("content_block_delta", Examples.C8_4),
                                new Event("content_block_stop", Examples.C8_5),
                                new Event("message_delta", Examples.C8_6),
                                new Event("message_stop", Examples.C8_7))));
    }

    static Stream<Arguments> referenceStreamsWithLineEndings() {
        return referenceStreams()
                .flatMap(example -> Stream.of("\n", "\r\n", "\r").map(ending -> {
                    Object[] args = example.get();
                    String stream = ((String) args[1]).replace("\n", ending);
                    String endingName = ending.replace("\r", "CR").replace("\n", "LF");
                    return Arguments.of(args[0] + " with " + endingName, stream, args[2]);
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("referenceStreamsWithLineEndings")
    void decodesReferenceStreamWhole(String name, String stream, List<Event> expected) {
        assertThat(decode(utf8(stream))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("referenceStreamsWithLineEndings")
    void decodesReferenceStreamSplitAtEveryPosition(String name, String stream, List<Event> expected) {
        byte[] bytes = utf8(stream);
        for (int split = 0; split <= bytes.length; split++) {
            List<Event> events = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            SseDecoder decoder = new SseDecoder((type, data, offset, length, nanos) -> {
                events.add(new Event(type, text(data, offset, length)));
                times.add(nanos);
            });
            decoder.feed(bytes, 0, split, 1);
            int completedByFirstRead = events.size();
            decoder.feed(bytes, split, bytes.length - split, 2);
            assertThat(events).as("split at byte %d", split).isEqualTo(expected);
            for (int i = 0; i < times.size(); i++) {
                assertThat(times.get(i))
                        .as("time of event %d, split at byte %d", i, split)
                        .isEqualTo(i < completedByFirstRead ? 1L : 2L);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("referenceStreamsWithLineEndings")
    void eachEventCarriesTheTimeOfTheByteThatCompletedIt(String name, String stream, List<Event> expected) {
        byte[] bytes = utf8(stream);
        List<Long> times = new ArrayList<>();
        SseDecoder decoder = new SseDecoder((type, data, offset, length, nanos) -> times.add(nanos));
        for (int i = 0; i < bytes.length; i++) {
            decoder.feed(bytes, i, 1, i);
        }
        assertThat(times).hasSameSizeAs(expected).isSorted().doesNotHaveDuplicates();
        for (long time : times) {
            // The blank line that ends an event: its line end follows another line end.
            int at = (int) time;
            assertThat(bytes[at]).as("byte %d", at).isIn((byte) '\r', (byte) '\n');
            assertThat(bytes[at - 1]).as("byte %d", at - 1).isIn((byte) '\r', (byte) '\n');
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("referenceStreamsWithLineEndings")
    void decodesReferenceStreamByteAtATime(String name, String stream, List<Event> expected) {
        assertThat(decodeByteAtATime(utf8(stream))).isEqualTo(expected);
    }

    @Test
    void ignoresCommentsAndKeepAlives() {
        String stream = ": ping\n\n:\n" + "data: a\n" + ": keep-alive inside an event\n" + "data: b\n\n" + ":bye\n\n";
        assertThat(decode(utf8(stream))).containsExactly(new Event(null, "a\nb"));
    }

    @Test
    void joinsDataLinesWithLineFeedAndKeepsEmptyOnes() {
        String stream = "data: first\ndata:\ndata:  two spaces\n\ndata\n\n";
        // Only one space after the colon is removed; "data" without a colon is a data line with an empty value.
        assertThat(decode(utf8(stream))).containsExactly(new Event(null, "first\n\n two spaces"), new Event(null, ""));
    }

    @Test
    void doesNotDispatchAnEventWithoutData() {
        String stream = "event: lonely\nid: 7\nretry: 1000\n\n" + "data: x\n\n";
        // The type of the dropped event must not leak into the next one.
        assertThat(decode(utf8(stream))).containsExactly(new Event(null, "x"));
    }

    @Test
    void ignoresIdRetryAndUnknownFieldsAndAnEmptyEventType() {
        String stream = "id: 1\nretry: 5\nfoo: bar\nevent:\ndata: x\n\n" + "event: e\nevent: f\ndata: y\n\n";
        assertThat(decode(utf8(stream))).containsExactly(new Event(null, "x"), new Event("f", "y"));
    }

    @Test
    void keepsColonsAndSpacesInsideTheValue() {
        String stream = "data: a: b  \n\n";
        assertThat(decode(utf8(stream))).containsExactly(new Event(null, "a: b  "));
    }

    @Test
    void crAtTheEndOfOneBufferAndLfAtTheStartOfTheNextAreOneLineEnd() {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        // Were the LF taken as a second line end, the blank line would dispatch "a" alone.
        decoder.feed(utf8("data: a\r"), 0, 8, 0);
        decoder.feed(utf8("\ndata: b\r\n\r\n"), 0, 12, 0);
        assertThat(events).containsExactly(new Event(null, "a\nb"));
    }

    @Test
    void anEventBegunInOneReadAndEndedInALaterOneCarriesTheLaterReadsTime() {
        List<Long> times = new ArrayList<>();
        SseDecoder decoder = new SseDecoder((type, data, offset, length, nanos) -> times.add(nanos));
        decoder.feed(utf8("data: {\"a\":"), 0, 11, 100);
        decoder.feed(utf8("1}\n"), 0, 3, 200);
        assertThat(times).isEmpty();
        decoder.feed(utf8("\ndata: x\n\n"), 0, 10, 300);
        assertThat(times).containsExactly(300L, 300L);
    }

    @Test
    void skipsByteOrderMarkAtStreamStartOnly() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] stream = concat(bom, utf8("data: x\n\n"), bom, utf8("data: y\n\n"));
        // A BOM in the middle of the stream is content: it makes the field name "\uFEFFdata", unknown.
        List<Event> expected = List.of(new Event(null, "x"));
        assertThat(decode(stream)).isEqualTo(expected);
        assertThat(decodeByteAtATime(stream)).isEqualTo(expected);
    }

    @Test
    void skipsByteOrderMarkBeforeAComment() {
        byte[] stream = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(":hi\ndata: x\n\n"));
        assertThat(decodeByteAtATime(stream)).containsExactly(new Event(null, "x"));
    }

    @Test
    void decodesMultiByteCharactersSplitAcrossBuffers() {
        String text = "日本語 and 🚀 (U+1F680, four bytes)";
        byte[] stream = utf8("event: 名前\ndata: " + text + "\n\n");
        for (int split = 0; split <= stream.length; split++) {
            List<Event> events = new ArrayList<>();
            SseDecoder decoder = recordingInto(events);
            decoder.feed(stream, 0, split, 0);
            decoder.feed(stream, split, stream.length - split, 0);
            assertThat(events).as("split at byte %d", split).containsExactly(new Event("名前", text));
        }
        assertThat(decodeByteAtATime(stream)).containsExactly(new Event("名前", text));
    }

    @Test
    void decodesAOneMebibyteEventFedInNetworkSizedBuffers() {
        char[] filler = new char[1 << 20];
        Arrays.fill(filler, 'x');
        String big = new String(filler);
        byte[] stream = utf8("data: " + big + "\ndata: tail\n\ndata: next\n\n");
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        for (int offset = 0; offset < stream.length; offset += 16 * 1024) {
            decoder.feed(stream, offset, Math.min(16 * 1024, stream.length - offset), 0);
        }
        assertThat(events).hasSize(2);
        assertThat(events.get(0).data())
                .hasSize((1 << 20) + "\ntail".length())
                .startsWith("xxx")
                .endsWith("x\ntail");
        assertThat(events.get(1)).isEqualTo(new Event(null, "next"));
    }

    @Test
    void endOfStreamDropsAnUnterminatedEventAndResets() {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        byte[] first = utf8("data: done\n\nevent: cut\ndata: partial\n");
        decoder.feed(first, 0, first.length, 0);
        decoder.endOfStream();
        assertThat(events).containsExactly(new Event(null, "done"));

        // The next stream starts clean: no leftover type or data, and a BOM is skipped again.
        byte[] second = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8("data: fresh\n\n"));
        decoder.feed(second, 0, second.length, 0);
        assertThat(events).containsExactly(new Event(null, "done"), new Event(null, "fresh"));
    }

    @Test
    void endOfStreamDropsAnUnterminatedLine() {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        byte[] stream = utf8("data: no line end");
        decoder.feed(stream, 0, stream.length, 0);
        decoder.endOfStream();
        assertThat(events).isEmpty();
    }

    @Test
    void consumesTheByteBufWithoutReleasingIt() {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        ByteBuf direct = Unpooled.directBuffer();
        try {
            direct.writeBytes(utf8("xxdata: a\n\ndata: b"));
            direct.readerIndex(2);
            decoder.feed(direct, 0);
            assertThat(direct.readableBytes()).isZero();
            assertThat(direct.refCnt()).isEqualTo(1);
            direct.writeBytes(utf8("\n\n"));
            decoder.feed(direct, 0);
            assertThat(events).containsExactly(new Event(null, "a"), new Event(null, "b"));
        } finally {
            direct.release();
        }
    }

    @Test
    void theBufferHoldsOnlyAnEventAndALineWhateverTheReadSizes() {
        // 300 events with data lines of 1,000 bytes: the buffer may double past the longest line
        // once, but a read of the whole stream (300 kB) must not make it hold the read.
        int lineBytes = 1_000;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            text.append("event: e")
                    .append(i % 3)
                    .append('\n')
                    .append("data: ")
                    .append(String.valueOf((char) ('a' + i % 26)).repeat(lineBytes - "data: ".length()))
                    .append("\n\n");
        }
        byte[] stream = utf8(text.toString());
        for (int readBytes : new int[] {1, 7, 999, 1_000, 1_001, 4_096, stream.length}) {
            List<Event> events = new ArrayList<>();
            SseDecoder decoder = recordingInto(events);
            int largest = 0;
            for (int offset = 0; offset < stream.length; offset += readBytes) {
                decoder.feed(stream, offset, Math.min(readBytes, stream.length - offset), 0);
                largest = Math.max(largest, decoder.bufferCapacity());
            }
            assertThat(events).as("reads of %d bytes", readBytes).hasSize(300);
            assertThat(events.get(299)).isEqualTo(new Event("e2", "n".repeat(lineBytes - "data: ".length())));
            assertThat(largest).as("reads of %d bytes", readBytes).isLessThanOrEqualTo(2 * lineBytes);
        }
    }

    @Test
    void aBufferThatAHugeEventGrewIsGivenBackOnceTheEventIsDispatched() {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        byte[] huge = utf8("data: " + "x".repeat(1 << 20) + "\n\ndata: sm");
        int largest = 0;
        for (int offset = 0; offset < huge.length; offset += 16 * 1024) {
            decoder.feed(huge, offset, Math.min(16 * 1024, huge.length - offset), 0);
            largest = Math.max(largest, decoder.bufferCapacity());
        }
        assertThat(largest).as("the event kept between reads").isGreaterThanOrEqualTo(1 << 20);
        assertThat(events).hasSize(1);
        assertThat(decoder.bufferCapacity())
                .as("dispatched: only the partial line after it is kept")
                .isEqualTo("data: sm".length());
        byte[] rest = utf8("all\n\n");
        decoder.feed(rest, 0, rest.length, 1);
        assertThat(events).hasSize(2).last().isEqualTo(new Event(null, "small"));
        assertThat(decoder.bufferCapacity()).isZero();
        assertThat(FrameBuffer.lentCapacity()).isBetween(1, FrameBuffer.RETAINED_CAPACITY);
    }

    @Test
    void aStreamHoldsNoBufferBetweenReadsThatEndOnAnEventsEnd() {
        List<Event> events = new ArrayList<>();
        SseDecoder first = recordingInto(events);
        SseDecoder second = recordingInto(events);
        byte[] one = utf8("data: one\n\ndata: tw");
        byte[] two = utf8("o\n\n");
        first.feed(one, 0, one.length, 1);
        assertThat(first.bufferCapacity()).as("a cut event, copied out").isEqualTo("data: tw".length());
        second.feed(one, 0, 10, 2);
        assertThat(second.bufferCapacity())
                .as("the data of an event not yet ended")
                .isEqualTo("one\n".length());
        first.feed(two, 0, two.length, 3);
        assertThat(first.bufferCapacity()).isZero();
        second.feed(one, 10, one.length - 10, 4);
        second.feed(two, 0, two.length, 5);
        assertThat(second.bufferCapacity()).isZero();
        assertThat(events)
                .containsExactly(
                        new Event(null, "one"), new Event(null, "two"), new Event(null, "one"), new Event(null, "two"));
    }

    @Test
    void theDataIsASliceValidForTheCallThatTheNextEventReuses() {
        // What a listener must not rely on, shown: the array of one event is written by the next.
        List<byte[]> arrays = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = new SseDecoder((type, data, offset, length, nanos) -> {
            arrays.add(data);
            events.add(new Event(type, text(data, offset, length)));
        });
        byte[] stream = utf8("data: first\n\ndata: second\n\n");
        decoder.feed(stream, 0, stream.length, 0);
        assertThat(events).containsExactly(new Event(null, "first"), new Event(null, "second"));
        assertThat(arrays.get(0)).isSameAs(arrays.get(1)).isNotSameAs(stream);
    }

    private static List<Event> decode(byte[] stream) {
        List<Event> events = new ArrayList<>();
        recordingInto(events).feed(stream, 0, stream.length, 0);
        return events;
    }

    private static List<Event> decodeByteAtATime(byte[] stream) {
        List<Event> events = new ArrayList<>();
        SseDecoder decoder = recordingInto(events);
        for (int i = 0; i < stream.length; i++) {
            decoder.feed(stream, i, 1, 0);
        }
        return events;
    }

    /** A decoder that adds each event it dispatches to {@code events}. */
    private static SseDecoder recordingInto(List<Event> events) {
        return new SseDecoder(
                (type, data, offset, length, nanos) -> events.add(new Event(type, text(data, offset, length))));
    }

    private static String text(byte[] data, int offset, int length) {
        return new String(data, offset, length, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int offset = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, offset, part.length);
            offset += part.length;
        }
        return all;
    }
}
