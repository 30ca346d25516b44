package dev.llmload.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of a client connection: timestamps every inbound message first, then passes
 * it to the current exchange's listener. Owned by the connection's event loop; one exchange at a
 * time (HTTP/1.1 without pipelining).
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    private Exchange current;
    private LoadHttpClient client;
    private boolean keepAlive;

    void begin(Exchange exchange, LoadHttpClient owner) {
        this.current = exchange;
        this.client = owner;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        long nanos = System.nanoTime();
        try {
            Exchange exchange = current;
            if (exchange == null || exchange.isDone()) {
                return;
            }
            if (msg instanceof HttpResponse response) {
                DecoderResult result = response.decoderResult();
                if (result.isFailure()) {
                    failAndClose(ctx, new ExchangeFailure.MalformedResponse(
                            "malformed HTTP response: " + LoadHttpClient.describe(result.cause())));
                    return;
                }
                keepAlive = HttpUtil.isKeepAlive(response);
                exchange.listener().onResponseHead(response.status().code(), response.headers(), nanos);
            }
            if (msg instanceof HttpContent content) {
                if (content.decoderResult().isFailure()) {
                    failAndClose(ctx, new ExchangeFailure.MalformedResponse(
                            "malformed HTTP body: " + LoadHttpClient.describe(content.decoderResult().cause())));
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
            exchange.fail(new ExchangeFailure.ConnectionLost("connection error: " + LoadHttpClient.describe(cause)));
        }
        ctx.close();
    }
}
