package dev.llmload.protocol;

/**
 * A native dialect's decoder: it reads each message's bytes into its {@link JsonFields} and
 * reports to its events (a message of the wrong shape is quoted by
 * {@link JsonFields#malformed(String)}); the same fields read an error body
 * ({@link NativeDialect#errorMessage}), since the dialect's error shape is one of its messages.
 * Confined to its response's event loop, as every {@link ResponseDecoder}.
 */
abstract class FieldsDecoder implements ResponseDecoder {

    /** Null in a decoder made only to read an error body. */
    final ResponseEvents events;

    final JsonFields fields;

    FieldsDecoder(ResponseEvents events, JsonFields fields) {
        this.events = events;
        this.fields = fields;
    }

    /** The server's error message in the fields last read; null when they hold none. */
    abstract String error();
}
