package dev.llmload.http.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NDJSON framer's contract, case by case (see its class documentation). */
class NdjsonDecoderTest {

    private final List<String> messages = new ArrayList<>();
    private final NdjsonDecoder decoder = new NdjsonDecoder((type, data, offset, length, nanos) -> {
        assertThat(type).isNull();
        messages.add(new String(data, offset, length, StandardCharsets.UTF_8) + " @" + nanos);
    });

    private void feed(String text, long nanos) {
        feed(text.getBytes(StandardCharsets.UTF_8), nanos);
    }

    private void feed(byte[] bytes, long nanos) {
        decoder.feed(Unpooled.wrappedBuffer(bytes), nanos);
    }

    @Test
    void eachLineIsAMessageTimedByTheReadThatEndedIt() {
        feed("{\"a\":1}\n{\"b\":", 1);
        feed("2}\n", 2);
        assertThat(messages).containsExactly("{\"a\":1} @1", "{\"b\":2} @2");
    }

    @Test
    void crBeforeLfIsDroppedAndBlankLinesAreSkipped() {
        feed("{\"a\":1}\r", 1);
        assertThat(messages).as("a line ends with its LF").isEmpty();
        feed("\n\r\n  \n\t\n{\"b\":2}\r\n", 2);
        assertThat(messages).containsExactly("{\"a\":1} @2", "{\"b\":2} @2");
    }

    @Test
    void aMultiByteCharacterSplitBetweenReadsDecodesWhole() {
        byte[] line = "{\"response\":\"héllo ✓\"}\n".getBytes(StandardCharsets.UTF_8);
        for (int at = 0; at <= line.length; at++) {
            messages.clear();
            feed(java.util.Arrays.copyOfRange(line, 0, at), 1);
            feed(java.util.Arrays.copyOfRange(line, at, line.length), 2);
            assertThat(messages)
                    .as("split at %d", at)
                    .containsExactly("{\"response\":\"héllo ✓\"} @" + (at == line.length ? 1 : 2));
        }
    }

    @Test
    void aLastLineWithoutItsNewlineIsStillAMessageAtTheEnd() {
        feed("{\"a\":1}\n{\"done\":true}", 3);
        assertThat(messages).containsExactly("{\"a\":1} @3");
        decoder.endOfStream();
        assertThat(messages).containsExactly("{\"a\":1} @3", "{\"done\":true} @3");
        // The decoder is clean for the next stream.
        decoder.endOfStream();
        feed("{\"c\":3}\n", 4);
        assertThat(messages).last().isEqualTo("{\"c\":3} @4");
    }

    @Test
    void theBufferHoldsOnlyAPartialLineWhateverTheReadSizes() {
        int lineBytes = 1_000;
        String line = "{\"response\":\"" + "y".repeat(lineBytes - 16) + "\"}\n";
        byte[] stream = line.repeat(300).getBytes(StandardCharsets.UTF_8);
        for (int readBytes : new int[] {1, 7, 999, 1_000, 1_001, 4_096, stream.length}) {
            messages.clear();
            int largest = 0;
            for (int offset = 0; offset < stream.length; offset += readBytes) {
                feed(java.util.Arrays.copyOfRange(stream, offset, Math.min(stream.length, offset + readBytes)), 1);
                largest = Math.max(largest, decoder.bufferCapacity());
            }
            assertThat(messages).as("reads of %d bytes", readBytes).hasSize(300);
            assertThat(largest).as("reads of %d bytes", readBytes).isLessThanOrEqualTo(2 * lineBytes);
        }
    }

    @Test
    void aHugeLineIsOneMessage() {
        String huge = "x".repeat(3_000_000);
        feed(huge.substring(0, 1_000_000), 1);
        feed(huge.substring(1_000_000) + "\n", 2);
        assertThat(messages).hasSize(1);
        assertThat(messages.getFirst()).hasSize(3_000_000 + " @2".length());
    }
}
