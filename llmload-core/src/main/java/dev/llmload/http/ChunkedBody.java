package dev.llmload.http;

import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * Reads one chunked HTTP/1.1 body (RFC 9112 §7.1) straight from a connection's reads, handing
 * on each chunk's data within the read itself: a streamed answer sends one chunk per event, and
 * this costs a few byte comparisons per chunk where the HTTP decoder made a message object and a
 * retained slice for each. Chunk extensions and trailer fields are skipped. Everything is from the
 * server and untrusted: a size line, a trailer line and all trailers together are bounded, and
 * anything that is not the framing ends the body as malformed. Owned by the connection's event
 * loop; one per body.
 */
final class ChunkedBody {

    /** A chunk-size line or trailer line longer than this is not HTTP framing. */
    static final int MAX_LINE_BYTES = 4096;
    /** All trailer lines together, as the decoder's limit on a response head. */
    static final int MAX_TRAILER_BYTES = 64 * 1024;

    private enum State {
        SIZE,
        EXTENSION,
        SIZE_LF,
        DATA,
        DATA_CR,
        DATA_LF,
        TRAILER_START,
        TRAILER,
        TRAILER_LF,
        END_LF,
        DONE
    }

    private State state = State.SIZE;
    private long chunkBytes;
    private int sizeDigits;
    private int lineBytes;
    private int trailerBytes;

    /** Why the body is malformed, once {@link #read} has said so. */
    private String malformed;

    /**
     * Reads what {@code in} holds of the body, giving each piece of chunk data to {@code data} (as
     * {@code in} itself, its readable bytes narrowed to that data during the call, which may read
     * them) and leaving {@code in} after the last byte read.
     *
     * @return true once the body has ended (bytes after it stay unread in {@code in}); false while
     *         more is to come, or when it is malformed ({@link #malformed()})
     */
    boolean read(ByteBuf in, Consumer<ByteBuf> data) {
        while (in.isReadable() && state != State.DONE && malformed == null) {
            if (state == State.DATA) {
                int n = (int) Math.min(chunkBytes, in.readableBytes());
                // The read itself, narrowed to the chunk's data for the call: no slice object per chunk.
                int from = in.readerIndex();
                int writer = in.writerIndex();
                in.writerIndex(from + n);
                data.accept(in);
                in.writerIndex(writer);
                in.readerIndex(from + n);
                chunkBytes -= n;
                if (chunkBytes == 0) {
                    state = State.DATA_CR;
                }
            } else {
                step(in.readByte());
            }
        }
        return state == State.DONE;
    }

    /** Null while the body is well formed. */
    String malformed() {
        return malformed;
    }

    private void step(byte b) {
        switch (state) {
            case SIZE -> {
                int digit = Character.digit(b, 16);
                if (digit >= 0) {
                    if (++sizeDigits > 15) {
                        malformed = "chunk size of more than 15 hex digits";
                        return;
                    }
                    chunkBytes = chunkBytes * 16 + digit;
                } else if (sizeDigits > 0 && (b == ';' || b == ' ' || b == '\t')) {
                    state = State.EXTENSION;
                } else if (sizeDigits > 0 && b == '\r') {
                    state = State.SIZE_LF;
                } else if (sizeDigits > 0 && b == '\n') {
                    endOfSizeLine();
                } else {
                    malformed = "not a chunk size: byte " + (b & 0xff);
                }
            }
            case EXTENSION -> {
                if (b == '\r') {
                    state = State.SIZE_LF;
                } else if (b == '\n') {
                    endOfSizeLine();
                } else if (++lineBytes > MAX_LINE_BYTES) {
                    malformed = "chunk size line longer than " + MAX_LINE_BYTES + " bytes";
                }
            }
            case SIZE_LF -> expectLineFeed(b, State.SIZE_LF);
            case DATA_CR -> {
                if (b == '\r') {
                    state = State.DATA_LF;
                } else {
                    expectLineFeed(b, State.DATA_CR);
                }
            }
            case DATA_LF -> expectLineFeed(b, State.DATA_LF);
            case TRAILER_START -> {
                if (b == '\r') {
                    state = State.END_LF;
                } else if (b == '\n') {
                    state = State.DONE;
                } else {
                    state = State.TRAILER;
                    trailer();
                }
            }
            case TRAILER -> {
                if (b == '\r') {
                    state = State.TRAILER_LF;
                } else if (b == '\n') {
                    state = State.TRAILER_START;
                } else {
                    trailer();
                }
            }
            case TRAILER_LF -> expectLineFeed(b, State.TRAILER_LF);
            case END_LF -> expectLineFeed(b, State.END_LF);
            case DATA, DONE -> throw new IllegalStateException(state.name());
        }
    }

    /** The line feed that ends a line begun in {@code after}. */
    private void expectLineFeed(byte b, State after) {
        if (b != '\n') {
            malformed = "expected a line feed in the chunk framing, found byte " + (b & 0xff);
            return;
        }
        switch (after) {
            case SIZE_LF -> endOfSizeLine();
            case DATA_CR, DATA_LF -> {
                state = State.SIZE;
                sizeDigits = 0;
                lineBytes = 0;
            }
            case TRAILER_LF -> state = State.TRAILER_START;
            case END_LF -> state = State.DONE;
            default -> throw new IllegalStateException(after.name());
        }
    }

    private void endOfSizeLine() {
        state = chunkBytes == 0 ? State.TRAILER_START : State.DATA;
    }

    private void trailer() {
        if (++trailerBytes > MAX_TRAILER_BYTES) {
            malformed = "trailer fields longer than " + MAX_TRAILER_BYTES + " bytes";
        }
    }
}
