package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the chosen fields of one JSON object, named by dotted paths ({@code "meta_info.completion_tokens"}),
 * with Jackson's streaming parser, straight from the message's bytes ({@link MessageParser}),
 * into slots reused for every message of a response: a message costs no tree of objects and no
 * parser, only the strings of the fields asked for. Objects on no asked path and
 * every array are skipped unread. Used by the native dialects' decoders, one instance per decoder
 * (so confined to its response's event loop).
 */
final class JsonFields implements MessageParser.ObjectReader {

    /**
     * The one parser factory of every dialect: its canonical table of field names is shared, so
     * after the first messages a field name costs a lookup, not a string.
     */
    static final JsonFactory JSON = new JsonFactory();
    /** The most bytes of a malformed message decoded for its quote (200 characters of up to 4 bytes). */
    private static final int QUOTED_BYTES = 800;

    private final String[][] paths;
    private final JsonToken[] kinds;
    private final String[] texts;
    private final double[] numbers;
    private final String[] names;
    /** The message last read, for {@link #malformed(String)}: a slice that is the caller's, not copied. */
    private byte[] source;

    private int sourceOffset;
    private int sourceLength;

    /** @param dotted the fields to read; their index in this list is how they are asked for after {@link #read} */
    JsonFields(String... dotted) {
        paths = new String[dotted.length][];
        int depth = 1;
        for (int i = 0; i < dotted.length; i++) {
            paths[i] = dotted[i].split("\\.");
            depth = Math.max(depth, paths[i].length);
        }
        kinds = new JsonToken[dotted.length];
        texts = new String[dotted.length];
        numbers = new double[dotted.length];
        names = new String[depth];
    }

    /**
     * Reads one message of a stream, the bytes {@code data[offset, offset + length)}, which need to
     * stay as they are only during this call and the handling of what it read; {@code what} names
     * what the message should have been, for the {@link MalformedMessageException} thrown when it is
     * not one JSON object.
     */
    void read(byte[] data, int offset, int length, String what) {
        source = data;
        sourceOffset = offset;
        sourceLength = length;
        try {
            MessageParser.parse(data, offset, length, this);
        } catch (IOException | RuntimeException e) {
            throw malformed(what, data, offset, length, e);
        }
    }

    /** Reads a whole body, as {@link #read(byte[], int, int, String)} reads a message. */
    void read(byte[] body, String what) {
        source = body;
        sourceOffset = 0;
        sourceLength = body.length;
        try {
            MessageParser.parseWhole(body, this);
        } catch (IOException | RuntimeException e) {
            throw malformed(what, body, 0, body.length, e);
        }
    }

    /**
     * Reads an error body that may be in any shape; false when it is not one JSON object (the
     * fields then hold nothing). For {@link Dialect#errorMessage}, which answers null then.
     */
    boolean readsAsObject(byte[] body) {
        try {
            MessageParser.parseWhole(body, this);
            return true;
        } catch (IOException | RuntimeException e) {
            Arrays.fill(kinds, null);
            Arrays.fill(texts, null);
            return false;
        }
    }

    /** Reads the asked fields of one object, replacing what the previous one left. */
    @Override
    public void readObject(JsonParser parser) throws IOException {
        Arrays.fill(kinds, null);
        Arrays.fill(texts, null);
        readObject(parser, 0);
    }

    private void readObject(JsonParser parser, int depth) throws IOException {
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            names[depth] = parser.currentName();
            JsonToken value = parser.nextToken();
            int field = match(depth);
            if (field >= 0) {
                kinds[field] = value;
                if (value == JsonToken.VALUE_STRING) {
                    texts[field] = parser.getText();
                } else if (value.isNumeric()) {
                    numbers[field] = parser.getDoubleValue();
                }
            }
            if (value == JsonToken.START_OBJECT && depth + 1 < names.length && leadsDeeper(depth)) {
                readObject(parser, depth + 1);
            } else {
                parser.skipChildren();
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("malformed JSON object");
        }
    }

    /** The asked field whose path is exactly the names down to {@code depth}, or -1. */
    private int match(int depth) {
        for (int i = 0; i < paths.length; i++) {
            if (paths[i].length == depth + 1 && prefixMatches(paths[i], depth)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether some asked field lies inside the object at the names down to {@code depth}. */
    private boolean leadsDeeper(int depth) {
        for (String[] path : paths) {
            if (path.length > depth + 1 && prefixMatches(path, depth)) {
                return true;
            }
        }
        return false;
    }

    private boolean prefixMatches(String[] path, int depth) {
        for (int d = 0; d <= depth; d++) {
            if (!path[d].equals(names[d])) {
                return false;
            }
        }
        return true;
    }

    /** The field was present and not null. */
    boolean present(int field) {
        return kinds[field] != null && kinds[field] != JsonToken.VALUE_NULL;
    }

    /** The field's string value; null when absent or not a string. */
    String text(int field) {
        return texts[field];
    }

    /** The field's string value when it is a non-empty string, else null. */
    String nonEmptyText(int field) {
        String text = texts[field];
        return text == null || text.isEmpty() ? null : text;
    }

    /** The field's numeric value; NaN when absent or not a number. */
    double number(int field) {
        return kinds[field] != null && kinds[field].isNumeric() ? numbers[field] : Double.NaN;
    }

    /** The field as a whole count; -1 when absent, not a number or negative. */
    int count(int field) {
        double value = number(field);
        return Double.isNaN(value) || value < 0 || value > Integer.MAX_VALUE ? -1 : (int) value;
    }

    /**
     * The server's error message when {@code field} holds an error: the string itself, or the
     * object's {@code messageField} (-1 when the dialect has none), or just "error".
     */
    String error(int field, int messageField) {
        if (!present(field)) {
            return null;
        }
        if (texts[field] != null) {
            return texts[field];
        }
        return messageField >= 0 && texts[messageField] != null ? texts[messageField] : "error";
    }

    /** The field is absent or of neither of the two kinds. */
    boolean kindIsNot(int field, JsonToken one, JsonToken other) {
        return kinds[field] != one && kinds[field] != other;
    }

    boolean isTrue(int field) {
        return kinds[field] == JsonToken.VALUE_TRUE;
    }

    boolean isObject(int field) {
        return kinds[field] == JsonToken.START_OBJECT;
    }

    /** Writes one JSON body with {@code body}. */
    static byte[] write(int sizeHint, Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            body.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** What {@link #write} fills in. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    /** A server's text for a one-line message: line ends folded, cut at 200 characters. */
    static String abbreviate(String text) {
        String oneLine = text.replaceAll("[\\r\\n]+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    /**
     * The message last read is not what {@code what} says it should be (its fields are of the
     * wrong kinds); quotes its start. Only while that message is being handled.
     */
    MalformedMessageException malformed(String what) {
        return malformed(what, source, sourceOffset, sourceLength, null);
    }

    /** A malformed message of {@code what}, the bytes {@code data[offset, offset + length)}, quoting the start of it. */
    static MalformedMessageException malformed(String what, byte[] data, int offset, int length, Exception cause) {
        // Enough bytes for the quote's 200 characters, however they are encoded; not all of a huge message.
        String text = new String(data, offset, Math.min(length, QUOTED_BYTES), StandardCharsets.UTF_8);
        return new MalformedMessageException(what + ": " + abbreviate(text), cause);
    }
}
