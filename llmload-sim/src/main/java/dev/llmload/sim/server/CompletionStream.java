package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.TokenSink;
import dev.llmload.sim.fault.Fault;
import dev.llmload.sim.truth.GroundTruthRecord;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One accepted completion request, from the response headers to its end: turns the engine's token
 * callbacks into SSE events (or one JSON body), applies this request's stream fault, and writes its
 * ground-truth line.
 *
 * <p>Threading: the {@link TokenSink} methods run on the engine's thread and only hand over to the
 * channel's event loop, which owns every field and does all writing.
 */
final class CompletionStream implements TokenSink {

    /** Marks the finish in the stall backlog, behind the tokens that came before it. */
    private static final int FINISH = -1;

    private final SimServices services;
    private final Channel channel;
    private final Runnable onEnd;
    private final CompletionRequest request;
    private final String requestId;
    private final int promptTokens;
    private final long arrivalNanos;
    private final long arrivalUnixMs;
    private final Fault fault;
    private final Words words;
    private final boolean keepAlive;
    private final ChunkFormat format;
    private final int tokensPerEvent;

    private Long scheduledNanos;
    private int written;
    private int pending;
    private double[] tokenTimesMs = new double[16];
    private int tokenWrites;
    private boolean done;
    private boolean faultFired;
    private boolean held;
    private FinishReason heldFinish;
    private final ArrayDeque<Integer> backlog = new ArrayDeque<>();
    private final StringBuilder body;

    CompletionStream(SimServices services, Channel channel, Runnable onEnd, CompletionRequest request,
            String requestId, int promptTokens, long arrivalNanos, long arrivalUnixMs, Fault fault, Words words,
            boolean keepAlive) {
        this.services = services;
        this.channel = channel;
        this.onEnd = onEnd;
        this.request = request;
        this.requestId = requestId;
        this.promptTokens = promptTokens;
        this.arrivalNanos = arrivalNanos;
        this.arrivalUnixMs = arrivalUnixMs;
        this.fault = fault;
        this.words = words;
        this.keepAlive = keepAlive;
        this.tokensPerEvent = services.config().tokensPerEvent();
        this.format = new ChunkFormat(request.chat(), bodyId(), arrivalUnixMs / 1000, model(), request.includeUsage());
        this.body = request.stream() ? null : new StringBuilder();
    }

    // ---- engine thread: hand over only ----

    @Override
    public void scheduled(long nanos) {
        channel.eventLoop().execute(() -> scheduledNanos = nanos);
    }

    @Override
    public void tokens(int count, long nanos) {
        channel.eventLoop().execute(() -> onTokens(count));
    }

    @Override
    public void finished(FinishReason reason, long nanos) {
        channel.eventLoop().execute(() -> onFinished(reason));
    }

    // ---- event loop ----

    /** Sends the response head (and chat's role chunk); called once the engine accepted the request. */
    void begin() {
        if (!request.stream()) {
            checkFault();
            return;
        }
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .set(SimHttpHandler.REQUEST_ID, requestId);
        HttpUtil.setTransferEncodingChunked(head, true);
        HttpUtil.setKeepAlive(head, keepAlive);
        channel.write(head, channel.voidPromise());
        if (request.chat()) {
            channel.write(content(format.roleChunk()), channel.voidPromise());
        }
        channel.flush();
        checkFault();
    }

    /** The client went away: stop the engine's work and record what it got. */
    void clientGone() {
        if (!done) {
            end("client_gone", null);
            services.engine().cancel(requestId);
        }
    }

    private void onTokens(int count) {
        if (done) {
            return;
        }
        if (held) {
            backlog.add(count);
            return;
        }
        if (fault instanceof Fault.Stall stall && !faultFired && written + pending + count >= stall.atToken()) {
            faultFired = true;
            int before = stall.atToken() - 1 - written - pending;
            if (before > 0) {
                accept(before);
            }
            held = true;
            backlog.add(count - Math.max(0, before));
            channel.eventLoop().schedule(this::release, stall.millis(), TimeUnit.MILLISECONDS);
            return;
        }
        accept(count);
    }

    private void accept(int count) {
        pending += count;
        if (pending >= tokensPerEvent) {
            int n = pending;
            pending = 0;
            writeTokens(n);
        }
    }

    private void release() {
        held = false;
        while (!done && !backlog.isEmpty()) {
            int next = backlog.poll();
            if (next == FINISH) {
                onFinished(heldFinish);
            } else {
                accept(next);
            }
        }
    }

    /** Writes {@code n} tokens, as far as the stream fault lets them through. */
    private void writeTokens(int n) {
        while (n > 0 && !done) {
            int threshold = faultThreshold();
            int now = threshold > written ? Math.min(n, threshold - written) : n;
            writeEvent(now);
            n -= now;
            checkFault();
        }
    }

    /** Tokens after which this request's stream fault fires; MAX_VALUE when none is due. */
    private int faultThreshold() {
        if (faultFired) {
            return Integer.MAX_VALUE;
        }
        return switch (fault) {
            case Fault.DisconnectAfter d -> d.tokens();
            case Fault.StreamErrorAfter e -> e.tokens();
            case Fault.MalformedAfter m -> m.tokens();
            case null, default -> Integer.MAX_VALUE;
        };
    }

    private void checkFault() {
        if (done || faultFired || written < faultThreshold()) {
            return;
        }
        faultFired = true;
        switch (fault) {
            case Fault.DisconnectAfter d -> {
                end("disconnect", null);
                services.engine().cancel(requestId);
                channel.close();
            }
            case Fault.StreamErrorAfter e -> {
                String message = "Injected error after " + e.tokens() + " tokens (llmload-sim fault)";
                if (request.stream()) {
                    channel.write(content(ChunkFormat.errorEvent(message, "InternalServerError", 500)),
                            channel.voidPromise());
                    channel.write(content(ChunkFormat.DONE), channel.voidPromise());
                    finishResponse();
                } else {
                    SimHttpHandler.sendError(channel, HttpResponseStatus.INTERNAL_SERVER_ERROR, requestId,
                            "InternalServerError", message, keepAlive, null);
                }
                end("stream_error", null);
                services.engine().cancel(requestId);
            }
            case Fault.MalformedAfter m -> {
                if (request.stream()) {
                    channel.writeAndFlush(content(format.malformedChunk()), channel.voidPromise());
                }
            }
            default -> throw new IllegalStateException("not a stream fault: " + fault);
        }
    }

    private void writeEvent(int n) {
        if (body != null) {
            for (int i = 0; i < n; i++) {
                body.append(words.text(written + i));
            }
        } else {
            int size = format.contentOpen().length + format.contentClose().length;
            byte[][] texts = new byte[n][];
            for (int i = 0; i < n; i++) {
                texts[i] = words.json(written + i);
                size += texts[i].length;
            }
            ByteBuf buf = channel.alloc().buffer(size);
            buf.writeBytes(format.contentOpen());
            for (byte[] text : texts) {
                buf.writeBytes(text);
            }
            buf.writeBytes(format.contentClose());
            recordTokenWrite();
            channel.writeAndFlush(new DefaultHttpContent(buf), channel.voidPromise());
        }
        written += n;
    }

    private void onFinished(FinishReason reason) {
        if (done) {
            return;
        }
        if (held) {
            heldFinish = reason;
            backlog.add(FINISH);
            return;
        }
        if (pending > 0) {
            int n = pending;
            pending = 0;
            writeTokens(n);
            if (done) {
                return;
            }
        }
        if (body != null && fault instanceof Fault.MalformedAfter && faultFired) {
            byte[] json = nonStreamingBody(reason).getBytes(StandardCharsets.UTF_8);
            sendBody(Arrays.copyOf(json, json.length / 2));
        } else if (body != null) {
            sendBody(nonStreamingBody(reason).getBytes(StandardCharsets.UTF_8));
        } else {
            channel.write(content(format.finishChunk(reason.wireName())), channel.voidPromise());
            if (request.includeUsage()) {
                channel.write(content(format.usageChunk(promptTokens, written)), channel.voidPromise());
            }
            channel.write(content(ChunkFormat.DONE), channel.voidPromise());
            finishResponse();
        }
        end("success", reason);
    }

    private void sendBody(byte[] json) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(json));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .set(SimHttpHandler.REQUEST_ID, requestId)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        recordTokenWrite();
        var future = channel.writeAndFlush(response);
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private String nonStreamingBody(FinishReason reason) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode root = json.objectNode();
        root.put("id", bodyId());
        root.put("object", request.chat() ? "chat.completion" : "text_completion");
        root.put("created", arrivalUnixMs / 1000);
        root.put("model", model());
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        if (request.chat()) {
            ObjectNode message = choice.putObject("message");
            message.put("role", "assistant");
            message.put("content", body.toString());
            message.putArray("tool_calls");
        } else {
            choice.put("text", body.toString());
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", reason.wireName());
        choice.putNull("stop_reason");
        ObjectNode usage = root.putObject("usage");
        usage.put("prompt_tokens", promptTokens);
        usage.put("total_tokens", promptTokens + written);
        usage.put("completion_tokens", written);
        return root.toString();
    }

    private void finishResponse() {
        var future = channel.writeAndFlush(new DefaultLastHttpContent());
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void end(String outcome, FinishReason reason) {
        done = true;
        backlog.clear();
        if (services.groundTruth() != null) {
            services.groundTruth().append(new GroundTruthRecord(requestId, arrivalUnixMs,
                    scheduledNanos == null ? null : (scheduledNanos - arrivalNanos) / 1e6,
                    Arrays.copyOf(tokenTimesMs, tokenWrites), promptTokens, written, request.numMessages(),
                    reason == null ? null : reason.wireName(), outcome));
        }
        onEnd.run();
    }

    private void recordTokenWrite() {
        if (tokenWrites == tokenTimesMs.length) {
            tokenTimesMs = Arrays.copyOf(tokenTimesMs, tokenWrites * 2);
        }
        tokenTimesMs[tokenWrites++] = (System.nanoTime() - arrivalNanos) / 1e6;
    }

    private String bodyId() {
        return (request.chat() ? "chatcmpl-" : "cmpl-") + requestId;
    }

    private String model() {
        return request.model() != null ? request.model() : services.config().model();
    }

    private static DefaultHttpContent content(byte[] bytes) {
        return new DefaultHttpContent(Unpooled.wrappedBuffer(bytes));
    }
}
