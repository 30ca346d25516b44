package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.TokenSink;
import dev.llmload.sim.fault.Fault;
import dev.llmload.sim.truth.GroundTruthRecord;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One accepted completion request, from the response headers to its end: turns the engine's token
 * callbacks into SSE events (or one JSON body), applies this request's stream fault, and writes its
 * ground-truth line.
 *
 * <p>Writing: the response head and its end go through the HTTP encoder; every SSE event in between
 * is framed here as one HTTP chunk (size line, event, CRLF) in one buffer and written beneath the
 * encoder, which keeps its chunked state meanwhile. The encoder would cost three buffers and a
 * pipeline pass per token; at 100,000 tokens/s that was a large share of the simulator's CPU. Each
 * token event is flushed at once, and the ground truth takes its write time as that flush begins.
 *
 * <p>Threading: the {@link TokenSink} methods run on the engine's thread and only post to the
 * connection's {@link LoopInbox}; its event loop owns every field and does all writing.
 */
final class CompletionStream implements TokenSink {

    /** Marks the finish in the stall backlog, behind the tokens that came before it. */
    private static final int FINISH = -1;

    private static final short CRLF = ('\r' << 8) | '\n';

    private final SimServices services;
    private final Channel channel;
    /** The HTTP codec's context: writing and flushing through it skip the codec and every handler after it. */
    private final ChannelHandlerContext belowEncoder;

    private final LoopInbox inbox;
    private final Runnable onEnd;
    private final CompletionRequest request;
    private final String requestId;
    private final int promptTokens;
    /** When the request's first byte was read ({@link ArrivalStamp}): the ground truth's origin. */
    private final long arrivalNanos;

    private final long arrivalUnixMicros;
    /** When the request was handed to the engine: the origin of the engine's own account. */
    private final long submittedNanos;

    private final Fault fault;
    private final Words words;
    private final boolean keepAlive;
    private final WireFormat format;
    private final int tokensPerEvent;

    private Long scheduledNanos;
    /** Prompt tokens the engine found in its prefix cache at the first scheduling; null from an engine without one. */
    private Integer cachedTokens;

    private int written;
    private int pending;
    private double[] tokenTimesMs = new double[16];
    private int tokenWrites;
    /** When the engine emitted the newest tokens this stream was handed. */
    private long newestTokenNanos;
    /** When the engine emitted this request's first and last tokens; -1 before the first. */
    private long firstTokenNanos = -1;

    private long lastTokenNanos = -1;
    private boolean done;
    private boolean faultFired;
    private boolean held;
    private FinishReason heldFinish;
    private final ArrayDeque<Integer> backlog = new ArrayDeque<>();
    /** The answer's text, kept when it is not streamed or when the format's last event repeats it. */
    private final StringBuilder text;

    CompletionStream(
            SimServices services,
            Connection connection,
            Runnable onEnd,
            CompletionRequest request,
            String requestId,
            int promptTokens,
            ArrivalStamp.Arrival arrival,
            long submittedNanos,
            Fault fault,
            Words words,
            boolean keepAlive) {
        this.services = services;
        this.channel = connection.channel();
        this.belowEncoder = connection.belowEncoder();
        this.inbox = connection.inbox();
        this.onEnd = onEnd;
        this.request = request;
        this.requestId = requestId;
        this.promptTokens = promptTokens;
        this.arrivalNanos = arrival.nanos();
        this.arrivalUnixMicros = arrival.unixMicros();
        this.submittedNanos = submittedNanos;
        this.fault = fault;
        this.words = words;
        this.keepAlive = keepAlive;
        this.tokensPerEvent = services.config().tokensPerEvent();
        this.format = WireFormat.of(
                request, requestId, arrival.unixMs(), model(), services.config().earlyRoleChunk());
        this.text = request.stream() && !format.needsText() ? null : new StringBuilder();
    }

    // ---- engine thread: hand over only ----

    @Override
    public void scheduled(long nanos) {
        inbox.post(() -> scheduledNanos = nanos);
    }

    @Override
    public void scheduled(long nanos, int cachedPromptTokens) {
        inbox.post(() -> {
            scheduledNanos = nanos;
            cachedTokens = cachedPromptTokens;
        });
    }

    @Override
    public void tokens(int count, long nanos) {
        inbox.post(() -> onTokens(count, nanos));
    }

    @Override
    public void finished(FinishReason reason, long nanos) {
        inbox.post(() -> onFinished(reason));
    }

    // ---- event loop ----

    /**
     * Sends the response head and the format's opening events (chat's early role chunk, Anthropic's
     * message_start); called once the engine accepted the request.
     */
    void begin() {
        if (!request.stream()) {
            checkFault();
            return;
        }
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, format.streamContentType())
                .set(SimHttpHandler.REQUEST_ID, requestId);
        HttpUtil.setTransferEncodingChunked(head, true);
        HttpUtil.setKeepAlive(head, keepAlive);
        channel.write(head, channel.voidPromise());
        byte[] opening = format.opening(promptTokens);
        if (opening != null) {
            writeEvent(opening);
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

    private void onTokens(int count, long nanos) {
        if (done) {
            return;
        }
        newestTokenNanos = nanos;
        if (firstTokenNanos < 0) {
            firstTokenNanos = nanos;
        }
        lastTokenNanos = nanos;
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
        // Held on purpose: the write delay of what the stall kept back counts from its release.
        newestTokenNanos = System.nanoTime();
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
            writeTokenEvent(now);
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
                    for (byte[] event : format.streamError(message)) {
                        writeEvent(event);
                    }
                    writeLastChunk();
                } else {
                    SimHttpHandler.sendError(
                            channel,
                            HttpResponseStatus.INTERNAL_SERVER_ERROR,
                            requestId,
                            WireFormat.errorBody(request.api(), message, "InternalServerError", 500),
                            keepAlive,
                            null);
                }
                end("stream_error", null);
                services.engine().cancel(requestId);
            }
            case Fault.MalformedAfter m -> {
                if (request.stream()) {
                    writeEvent(format.malformed());
                    channel.flush();
                }
            }
            default -> throw new IllegalStateException("not a stream fault: " + fault);
        }
    }

    private void writeTokenEvent(int n) {
        if (text != null) {
            for (int i = 0; i < n; i++) {
                text.append(words.text(written + i));
            }
        }
        if (request.stream()) {
            if (written == 0) {
                byte[] prefix = format.beforeFirstToken();
                if (prefix != null) {
                    writeEvent(prefix);
                }
            }
            // Each word once: in echo mode json() escapes it anew on every call. A cumulative
            // format repeats every word so far.
            int from = format.cumulative() ? 0 : written;
            int to = written + n;
            byte[][] texts = new byte[to - from][];
            byte[] open = format.eventOpen(to);
            byte[] close = format.eventClose(to);
            int size = open.length + close.length;
            for (int i = from; i < to; i++) {
                texts[i - from] = words.json(i);
                size += texts[i - from].length;
            }
            ByteBuf chunk = startChunk(size);
            chunk.writeBytes(open);
            for (byte[] word : texts) {
                chunk.writeBytes(word);
            }
            chunk.writeBytes(close);
            endChunk(chunk);
            // Stamped before the flush: on loopback the kernel stamps the packet inside the send,
            // and the receiver's work runs in it too, so the time after the flush returns was
            // measured later than the packet (bench/wire-truth.sh: |stamp - packet| p99 0.03 ms
            // before the flush, 1.7 ms after it, 0.37 ms at the write's completion). The ground
            // truth must never be later than what a client can see.
            long now = System.nanoTime();
            // Counted before the flush too: a client that has read the event and then scrapes
            // /metrics must find it counted (the loop could otherwise be descheduled in between).
            services.metrics().observeWriteDelay(now - newestTokenNanos);
            belowEncoder.flush();
            recordTokenWrite(now);
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
        WireFormat.Finish finish = finish(reason);
        if (!request.stream()) {
            byte[] json = format.body(finish).getBytes(StandardCharsets.UTF_8);
            sendBody(fault instanceof Fault.MalformedAfter && faultFired ? Arrays.copyOf(json, json.length / 2) : json);
        } else {
            byte[] prefix = written == 0 ? format.beforeFirstToken() : null;
            if (prefix != null) {
                writeEvent(prefix);
            }
            for (byte[] event : format.finish(finish)) {
                writeEvent(event);
            }
            writeLastChunk();
        }
        end("success", reason);
    }

    private void sendBody(byte[] json) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(json));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .set(SimHttpHandler.REQUEST_ID, requestId)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        recordTokenWrite(System.nanoTime());
        var future = channel.writeAndFlush(response);
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * The server's own account of the answer: queue is the hand-over to the engine to scheduling,
     * prefill scheduling to the first token, decode first to last token, all as the engine timed them.
     */
    private WireFormat.Finish finish(FinishReason reason) {
        long now = System.nanoTime();
        long scheduled = scheduledNanos == null ? submittedNanos : scheduledNanos;
        long first = firstTokenNanos < 0 ? now : firstTokenNanos;
        long last = lastTokenNanos < 0 ? now : lastTokenNanos;
        return new WireFormat.Finish(
                reason,
                promptTokens,
                written,
                text == null ? "" : text.toString(),
                scheduled - submittedNanos,
                Math.max(0, first - scheduled),
                Math.max(0, last - first),
                now - submittedNanos);
    }

    /** One whole SSE event as one HTTP chunk; flushed by the caller or by {@link #end}. */
    private void writeEvent(byte[] event) {
        endChunk(startChunk(event.length).writeBytes(event));
    }

    /** A buffer holding the size line of a chunk of {@code size} bytes, with room for them and the CRLF. */
    private ByteBuf startChunk(int size) {
        String hex = Integer.toHexString(size);
        ByteBuf chunk = channel.alloc().buffer(hex.length() + 2 + size + 2);
        chunk.writeCharSequence(hex, StandardCharsets.US_ASCII);
        chunk.writeShort(CRLF);
        return chunk;
    }

    private void endChunk(ByteBuf chunk) {
        chunk.writeShort(CRLF);
        belowEncoder.write(chunk, channel.voidPromise());
    }

    /** The zero-size last chunk, through the encoder so that it is ready for the next response. */
    private void writeLastChunk() {
        var future = channel.write(LastHttpContent.EMPTY_LAST_CONTENT);
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void end(String outcome, FinishReason reason) {
        channel.flush();
        done = true;
        backlog.clear();
        if (services.groundTruth() != null) {
            services.groundTruth()
                    .append(new GroundTruthRecord(
                            requestId,
                            Math.floorDiv(arrivalUnixMicros, 1000),
                            arrivalUnixMicros,
                            (submittedNanos - arrivalNanos) / 1e6,
                            scheduledNanos == null ? null : (scheduledNanos - arrivalNanos) / 1e6,
                            scheduledNanos == null ? null : (scheduledNanos - submittedNanos) / 1e6,
                            Arrays.copyOf(tokenTimesMs, tokenWrites),
                            promptTokens,
                            cachedTokens,
                            written,
                            request.numMessages(),
                            reason == null ? null : reason.wireName(),
                            outcome,
                            request.api().id()));
        }
        onEnd.run();
    }

    private void recordTokenWrite(long nanos) {
        if (tokenWrites == tokenTimesMs.length) {
            tokenTimesMs = Arrays.copyOf(tokenTimesMs, tokenWrites * 2);
        }
        tokenTimesMs[tokenWrites++] = (nanos - arrivalNanos) / 1e6;
    }

    private String model() {
        return request.model() != null ? request.model() : services.config().model();
    }
}
