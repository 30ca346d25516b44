package dev.llmload.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A chunked body taken apart from reads cut anywhere: its data, its end, and what is not chunk framing. */
class ChunkedBodyTest {

    private static final String BODY = "5\r\nhello\r\n19;name=\"v\"\r\ndata: {\"x\":1}\n\n0123456789\r\n"
            + "3\nabc\n0\r\nx-trailer: 1\r\nx-other: 2\r\n\r\n";

    @Test
    void everyCutOfTheReadsGivesTheSameDataAndEnd() {
        byte[] bytes = (BODY + "NEXT").getBytes(StandardCharsets.US_ASCII);
        String expected = "hellodata: {\"x\":1}\n\n0123456789abc";
        for (int cut = 1; cut <= bytes.length; cut++) {
            ChunkedBody body = new ChunkedBody();
            ByteArrayOutputStream data = new ByteArrayOutputStream();
            boolean ended = false;
            int leftover = 0;
            for (int from = 0; from < bytes.length && !ended; from += cut) {
                ByteBuf read = Unpooled.wrappedBuffer(bytes, from, Math.min(cut, bytes.length - from));
                ended = body.read(read, slice -> data.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(slice)));
                leftover = read.readableBytes() + Math.max(0, bytes.length - from - cut);
            }
            assertThat(body.malformed()).as("reads of %d", cut).isNull();
            assertThat(ended).as("reads of %d", cut).isTrue();
            assertThat(data.toString(StandardCharsets.US_ASCII))
                    .as("reads of %d", cut)
                    .isEqualTo(expected);
            assertThat(leftover).as("reads of %d", cut).isEqualTo("NEXT".length());
        }
    }

    @Test
    void whatIsNotChunkFramingIsMalformed() {
        assertThat(malformed("zz\r\n")).startsWith("not a chunk size");
        assertThat(malformed("\r\n")).startsWith("not a chunk size");
        assertThat(malformed("1234567890abcdef0\r\n")).contains("15 hex digits");
        assertThat(malformed("3\r\nabcX\r\n")).contains("expected a line feed");
        assertThat(malformed("3\rx")).contains("expected a line feed");
        assertThat(malformed("3;" + "e".repeat(ChunkedBody.MAX_LINE_BYTES + 1))).contains("chunk size line longer");
        assertThat(malformed("0\r\n" + "t".repeat(ChunkedBody.MAX_TRAILER_BYTES + 1)))
                .contains("trailer fields longer");
    }

    private static String malformed(String text) {
        ChunkedBody body = new ChunkedBody();
        assertThat(body.read(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII), slice -> {}))
                .isFalse();
        return body.malformed();
    }
}
