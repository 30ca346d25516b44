package dev.llmload.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * Receives one HTTP exchange as it happens. Every method runs on the event loop that owns the
 * exchange's connection, and every {@code nanos} is {@link System#nanoTime()} taken in
 * {@code channelRead} before the message was looked at, so parsing never delays a timestamp.
 * Exactly one of {@link #onComplete} and {@link #onFailure} ends the exchange.
 */
public interface ResponseListener {

    /** The exchange begins on its event loop; nothing else has happened yet. */
    void onStart(Exchange exchange);

    void onResponseHead(int status, HttpHeaders headers, long nanos);

    /** A piece of the body; valid only during the call (the buffer is released afterwards). */
    void onBodyChunk(ByteBuf chunk, long nanos);

    void onComplete(long nanos);

    void onFailure(ExchangeFailure failure, long nanos);
}
