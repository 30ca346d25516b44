package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Parses each message of a stream as one JSON object, straight from its bytes, with one Jackson
 * parser per thread that is reused for every message the thread decodes.
 *
 * <p>Why: opening a parser per message (its context objects, name table, text buffer: about 800
 * bytes) cost more than everything else a token event allocates. Jackson's non-blocking parser
 * takes its input in pieces and reads one root value after another, so each message is fed to the
 * same parser as the next piece: a message that is exactly one object leaves it ready for the
 * next, and a parse costs no allocation but the strings read out.
 *
 * <p>Contract: the message must be one JSON object with nothing but whitespace around it; anything
 * else (not JSON, another value, an object cut short, content after it) is an {@link IOException}
 * from {@link #parse}, after which the thread's parser is replaced, so no state of a bad message
 * reaches the next one. The parser's table of field names only grows with names it has not seen,
 * and it is replaced after {@value #RENEW_AFTER_BYTES} bytes of input, so a server that sends ever
 * new names cannot make it grow without bound.
 *
 * <p>Threading: each thread has its own parser (a decoder runs on its response's event loop, a
 * test on its own thread); a parse is synchronous and not re-entered.
 */
final class MessageParser {

    /** Reads one object, from its {@code START_OBJECT} (the current token) to its {@code END_OBJECT}. */
    @FunctionalInterface
    interface ObjectReader {
        void readObject(JsonParser parser) throws IOException;
    }

    static final long RENEW_AFTER_BYTES = 1 << 20;

    private static final ThreadLocal<MessageParser> PER_THREAD = ThreadLocal.withInitial(MessageParser::new);
    private static final OutputStream NOWHERE = OutputStream.nullOutputStream();

    private JsonParser parser;
    private ByteArrayFeeder feeder;
    private long fedBytes;

    private MessageParser() {
        renew();
    }

    /** Parses {@code data[offset, offset + length)} as one JSON object, handing it to {@code reader}. */
    static void parse(byte[] data, int offset, int length, ObjectReader reader) throws IOException {
        PER_THREAD.get().parseOne(data, offset, length, reader);
    }

    /** Parses a whole body as one JSON object with a parser of its own: bodies are one per response. */
    static void parseWhole(byte[] body, ObjectReader reader) throws IOException {
        try (JsonParser whole = JsonFields.JSON.createParser(body)) {
            if (whole.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object");
            }
            reader.readObject(whole);
            if (whole.currentToken() != JsonToken.END_OBJECT
                    || !whole.getParsingContext().inRoot()
                    || whole.nextToken() != null) {
                throw new IOException("unexpected content after the JSON object");
            }
        }
    }

    private void parseOne(byte[] data, int offset, int length, ObjectReader reader) throws IOException {
        boolean clean = false;
        try {
            feeder.feedInput(data, offset, offset + length);
            fedBytes += length;
            // Not an object at all (a number, or nothing, would only ask for more input).
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object");
            }
            reader.readObject(parser);
            if (parser.currentToken() != JsonToken.END_OBJECT
                    || !parser.getParsingContext().inRoot()) {
                throw new IOException("not one whole JSON object");
            }
            // What the parser has not read yet is what follows the object: only whitespace may.
            int end = offset + length;
            for (int i = end - parser.releaseBuffered(NOWHERE); i < end; i++) {
                byte b = data[i];
                if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                    throw new IOException("unexpected content after the JSON object");
                }
            }
            if (parser.nextToken() != JsonToken.NOT_AVAILABLE) {
                throw new IOException("unexpected content after the JSON object");
            }
            clean = true;
        } finally {
            if (!clean || fedBytes > RENEW_AFTER_BYTES) {
                renew();
            }
        }
    }

    private void renew() {
        try {
            if (parser != null) {
                parser.close();
            }
            parser = JsonFields.JSON.createNonBlockingByteArrayParser();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
        fedBytes = 0;
    }
}
