package dev.llmload.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The thread's reused parser: each message is exactly one object, and nothing a bad message left
 * half-read (an open object, a string or literal cut off after the object) reaches the next one.
 */
class MessageParserTest {

    /** Writes down each field of the object as name=value, skipping nested values. */
    private static final class Fields implements MessageParser.ObjectReader {
        final List<String> seen = new ArrayList<>();

        @Override
        public void readObject(JsonParser parser) throws IOException {
            seen.clear();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                seen.add(name + "=" + (value.isScalarValue() ? parser.getText() : value.name()));
                parser.skipChildren();
            }
        }
    }

    private final Fields fields = new Fields();

    private void parse(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        MessageParser.parse(bytes, 0, bytes.length, fields);
    }

    @Test
    void oneObjectWithWhitespaceAroundIt() throws IOException {
        parse(" \r\n{\"a\":1,\"b\":{\"c\":[1,{}]},\"d\":\"é\"}\t\r\n");
        assertThat(fields.seen).containsExactly("a=1", "b=START_OBJECT", "d=é");
        parse("{}");
        assertThat(fields.seen).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "   ",
                "42",
                "\"text\"",
                "[1,2]",
                "null",
                "{\"a\":1",
                "{\"a\":{\"b\":[1,",
                "{\"a\":\"cut",
                "{\"a\":1}{\"b\":2}",
                "{\"a\":1} {",
                "{\"a\":1} \"open string",
                "{\"a\":1} tru",
                "{\"a\":1} 12",
                "{\"a\":1} x",
                "{\"a\":1}}",
                "{\"a\" 1}",
                "<html>502</html>"
            })
    void anythingButOneWholeObjectFailsAndTheNextMessageParsesClean(String bad) throws IOException {
        assertThatThrownBy(() -> parse(bad)).isInstanceOf(IOException.class);
        parse("{\"next\":true}");
        assertThat(fields.seen).containsExactly("next=true");
        parse("{\"after\":\"that\"}");
        assertThat(fields.seen).containsExactly("after=that");
    }

    @Test
    void theParserIsRenewedAfterItsByteBudgetAndGoesOnReadingEveryMessage() throws IOException {
        String message = "{\"n\":\"" + "x".repeat(1000) + "\"}\n";
        long messages = MessageParser.RENEW_AFTER_BYTES / message.length() * 3;
        for (long i = 0; i < messages; i++) {
            parse(message);
            assertThat(fields.seen).hasSize(1);
        }
    }

    @Test
    void aWholeBodyIsOneObjectToo() throws IOException {
        MessageParser.parseWhole("{\"a\":\"b\"}\n".getBytes(StandardCharsets.UTF_8), fields);
        assertThat(fields.seen).containsExactly("a=b");
        assertThatThrownBy(() -> MessageParser.parseWhole("{\"a\":1} {}".getBytes(StandardCharsets.UTF_8), fields))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> MessageParser.parseWhole("[]".getBytes(StandardCharsets.UTF_8), fields))
                .isInstanceOf(IOException.class);
    }
}
