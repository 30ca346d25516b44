package dev.llmload.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.function.Consumer;

/**
 * The last handler of a client connection: timestamps every inbound message first, then passes
 * it to the current exchange's listener. Owned by the connection's event loop; one exchange at a
 * time (HTTP/1.1 without pipelining).
 *
 * <p>A chunked body (every streamed answer) is read here from the raw reads: once its head is in,
 * the HTTP decoder leaves the pipeline (handing on what it had read past the head) and
 * {@link ChunkedBody} takes the chunks apart; when the body ends, a new decoder is put back for
 * the connection's next response.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    private Exchange current;
    private LoadHttpClient client;
    private boolean keepAlive;
    /** The chunked body being read without the decoder; null while the decoder reads. */
    private ChunkedBody chunked;
    /** The time of the read being handed on, for {@link #bodyData}. */
    private long readNanos;

    private final Consumer<ByteBuf> bodyData = this::bodyData;

    void begin(Exchange exchange, LoadHttpClient owner) {
        this.current = exchange;
        this.client = owner;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long nanos = System.nanoTime();
        try {
            Exchange exchange = current;
            if (exchange == null) {
                // Bytes no request asked for (a response came whole before them, or the connection
                // was idle): what follows on this connection could no longer be told apart.
                ctx.close();
                return;
            }
            if (exchange.isDone()) {
                return;
            }
            if (msg instanceof ByteBuf bytes) {
                readChunked(ctx, exchange, bytes, nanos);
                return;
            }
            if (msg instanceof HttpResponse response) {
                DecoderResult result = response.decoderResult();
                if (result.isFailure()) {
                    failAndClose(
                            ctx,
                            new ExchangeFailure.MalformedResponse(
                                    "malformed HTTP response: " + LoadHttpClient.describe(result.cause())));
                    return;
                }
                keepAlive = HttpUtil.isKeepAlive(response);
                exchange.listener().onResponseHead(response.status().code(), response.headers(), nanos);
                if (!(msg instanceof HttpContent)
                        && HttpUtil.isTransferEncodingChunked(response)
                        && hasBody(response.status().code())
                        && !exchange.isDone()) {
                    chunked = new ChunkedBody();
                    // Whatever the decoder read past the head comes to this handler now, as bytes.
                    ctx.pipeline().remove(HttpResponseDecoder.class);
                    return;
                }
            }
            if (msg instanceof HttpContent content) {
                if (content.decoderResult().isFailure()) {
                    failAndClose(
                            ctx,
                            new ExchangeFailure.MalformedResponse("malformed HTTP body: "
                                    + LoadHttpClient.describe(
                                            content.decoderResult().cause())));
                    return;
                }
                if (content.content().isReadable() && !exchange.isDone()) {
                    exchange.listener().onBodyChunk(content.content(), nanos);
                }
                if (msg instanceof LastHttpContent && !exchange.isDone()) {
                    current = null;
                    exchange.complete(nanos);
                    if (keepAlive) {
                        client.release(ctx.channel());
                    } else {
                        ctx.close();
                    }
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** A status whose response has a body to read (RFC 9110 §6.4.1: not 1xx, 204 or 304). */
    private static boolean hasBody(int status) {
        return status >= 200 && status != 204 && status != 304;
    }

    private void readChunked(ChannelHandlerContext ctx, Exchange exchange, ByteBuf bytes, long nanos) {
        if (chunked == null) {
            failAndClose(
                    ctx, new ExchangeFailure.MalformedResponse("malformed HTTP response: bytes outside a response"));
            return;
        }
        readNanos = nanos;
        boolean ended = chunked.read(bytes, bodyData);
        String malformed = chunked.malformed();
        if (malformed != null) {
            chunked = null;
            failAndClose(ctx, new ExchangeFailure.MalformedResponse("malformed HTTP body: " + malformed));
            return;
        }
        if (!ended || exchange.isDone()) {
            return;
        }
        chunked = null;
        ctx.pipeline().addBefore(ctx.name(), LoadHttpClient.RESPONSE_DECODER, LoadHttpClient.responseDecoder());
        current = null;
        exchange.complete(nanos);
        // Bytes after the body before any request was sent are no response to anything: not reused.
        if (keepAlive && !bytes.isReadable()) {
            client.release(ctx.channel());
        } else {
            ctx.close();
        }
    }

    private void bodyData(ByteBuf data) {
        Exchange exchange = current;
        if (exchange != null && !exchange.isDone()) {
            exchange.listener().onBodyChunk(data, readNanos);
        }
    }

    private void failAndClose(ChannelHandlerContext ctx, ExchangeFailure failure) {
        Exchange exchange = current;
        current = null;
        exchange.fail(failure);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (current != null) {
            Exchange exchange = current;
            current = null;
            exchange.fail(new ExchangeFailure.ConnectionLost("server closed the connection before the response ended"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (current != null) {
            Exchange exchange = current;
            current = null;
            exchange.fail(LoadHttpClient.broken("connection error: ", cause));
        }
        ctx.close();
    }
}
