package dev.llmload.load;

import dev.llmload.http.Exchange;
import dev.llmload.http.ExchangeFailure;
import dev.llmload.http.ResponseListener;
import dev.llmload.http.sse.SseDecoder;
import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.protocol.StreamChunk;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TimeoutKind;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.concurrent.Future;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * One request in flight: turns the bytes of its response into timestamps and an outcome.
 * Confined to the event loop of its exchange: the dispatcher sets it up before the send, and every
 * callback, timer and {@link #cancel} runs on that loop afterwards. SSE events are decoded as the
 * bytes arrive, each stamped with the time of the network read that completed it; the JSON of an
 * event is read only after that stamp was taken.
 */
final class RequestExecution implements ResponseListener, SseDecoder.Listener {

    /** Error bodies are kept up to this size for the failure message. */
    private static final int MAX_ERROR_BODY = 8 * 1024;

    private final PreparedRequest request;
    private final String requestId;
    private final boolean warmup;
    private final long intendedSendNanos;
    /**
     * When the request left the dispatcher, then (from {@link #onStart}) when its event loop took
     * it up: the send time TTFT and E2E count from. Taking it on the loop keeps the hand-over
     * between threads out of every latency, while a connection opened for the request stays in.
     */
    private long sentNanos;
    private final OpenAiCodec codec;
    private final Timeouts timeouts;
    private final BiConsumer<RequestExecution, FinishedRequest> onFinished;

    /** The exchange as the loop knows it (set in {@link #onStart}). */
    private Exchange exchange;
    /** The same exchange as other threads know it, for {@link #cancel}. */
    private volatile Exchange handle;
    private SseDecoder sse;
    private ByteArrayOutputStream body;
    private int status;
    private String serverRequestId;
    private String retryAfter;
    private long firstByteNanos = RequestTimings.NEVER;
    private long firstTokenNanos = RequestTimings.NEVER;
    private long firstContentNanos = RequestTimings.NEVER;
    private long lastActivityNanos;
    private long readNanos;
    private final LongList tokenTimes = new LongList();
    private final List<String> tokenTexts = new ArrayList<>();
    private StreamChunk.Usage usage;
    private String finishReason;
    private boolean streamed;
    private String streamError;
    private Outcome.Failure pendingFailure;
    private final List<Future<?>> timers = new ArrayList<>(3);
    private boolean finished;

    RequestExecution(PreparedRequest request, String requestId, boolean warmup, long intendedSendNanos,
                     long sentNanos, OpenAiCodec codec, Timeouts timeouts,
                     BiConsumer<RequestExecution, FinishedRequest> onFinished) {
        this.request = request;
        this.requestId = requestId;
        this.warmup = warmup;
        this.intendedSendNanos = intendedSendNanos;
        this.sentNanos = sentNanos;
        this.codec = codec;
        this.timeouts = timeouts;
        this.onFinished = onFinished;
    }

    /** Called by the dispatcher right after the send, so that {@link #cancel} can reach the exchange. */
    void started(Exchange started) {
        this.handle = started;
    }

    @Override
    public void onStart(Exchange started) {
        this.exchange = started;
        long now = System.nanoTime();
        sentNanos = now;
        if (timeouts.total() != null) {
            schedule(sentNanos + timeouts.total().toNanos() - now, () -> timeOut(TimeoutKind.TOTAL,
                    "no complete response within " + timeouts.total().toMillis() + " ms"));
        }
        if (timeouts.firstToken() != null) {
            schedule(sentNanos + timeouts.firstToken().toNanos() - now, () -> {
                if (firstTokenNanos < 0) {
                    timeOut(TimeoutKind.FIRST_TOKEN, "no token within " + timeouts.firstToken().toMillis() + " ms");
                }
            });
        }
    }

    private void schedule(long delayNanos, Runnable task) {
        timers.add(exchange.loop().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS));
    }

    private void armIdleTimer() {
        long idle = timeouts.idle().toNanos();
        schedule(lastActivityNanos + idle - System.nanoTime(), () -> {
            if (finished) {
                return;
            }
            if (System.nanoTime() - lastActivityNanos >= idle) {
                timeOut(TimeoutKind.IDLE, "stream idle for more than " + timeouts.idle().toMillis() + " ms");
            } else {
                armIdleTimer();
            }
        });
    }

    private void timeOut(TimeoutKind kind, String message) {
        abortWith(Outcome.Failure.timeout(kind, message));
    }

    /** Ends the request as cancelled (the run is stopping). Safe from any thread. */
    void cancel(String reason) {
        handle.loop().execute(() -> abortWith(Outcome.Failure.of(FailureClass.CANCELLED, reason)));
    }

    private void abortWith(Outcome.Failure failure) {
        if (finished) {
            return;
        }
        pendingFailure = failure;
        exchange.abort(failure.message());
    }

    @Override
    public void onSent(long nanos) {
        // The send time is taken when the request passed the gate; connection setup counts in TTFT,
        // as it does for a user.
    }

    @Override
    public void onResponseHead(int status, HttpHeaders headers, long nanos) {
        this.status = status;
        this.firstByteNanos = nanos;
        this.lastActivityNanos = nanos;
        this.serverRequestId = headers.get("x-request-id");
        this.retryAfter = headers.get(HttpHeaderNames.RETRY_AFTER);
        String contentType = headers.get(HttpHeaderNames.CONTENT_TYPE, "");
        if (status == 200 && contentType.contains("text/event-stream")) {
            streamed = true;
            sse = new SseDecoder(this);
        } else {
            body = new ByteArrayOutputStream();
        }
    }

    @Override
    public void onBodyChunk(ByteBuf chunk, long nanos) {
        lastActivityNanos = nanos;
        if (sse != null) {
            readNanos = nanos;
            sse.feed(chunk);
        } else if (body.size() < MAX_ERROR_BODY || status == 200) {
            body.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(chunk));
        }
    }

    @Override
    public void onEvent(String eventType, String data) {
        if (finished || pendingFailure != null) {
            return;
        }
        if (data.equals("[DONE]")) {
            return;
        }
        StreamChunk chunk;
        try {
            chunk = codec.decode(data);
        } catch (OpenAiCodec.MalformedChunkException e) {
            abortWith(Outcome.Failure.of(FailureClass.PROTOCOL, e.getMessage()));
            return;
        }
        if (chunk.error() != null) {
            streamError = chunk.error();
        }
        if (chunk.carriesText()) {
            if (firstTokenNanos < 0) {
                firstTokenNanos = readNanos;
                if (timeouts.idle() != null) {
                    armIdleTimer();
                }
            }
            if (firstContentNanos < 0 && chunk.carriesContent()) {
                firstContentNanos = readNanos;
            }
            tokenTimes.add(readNanos);
            String content = chunk.content() == null ? "" : chunk.content();
            tokenTexts.add(chunk.reasoning() == null ? content : chunk.reasoning() + content);
        }
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
        if (chunk.usage() != null) {
            usage = chunk.usage();
        }
    }

    @Override
    public void onComplete(long nanos) {
        if (sse != null) {
            sse.endOfStream();
        }
        Outcome outcome;
        if (pendingFailure != null) {
            outcome = pendingFailure;
        } else if (status != 200) {
            outcome = Outcome.Failure.of(FailureClass.forHttpStatus(status), "HTTP " + status + ": " + errorMessage());
        } else if (streamError != null) {
            outcome = Outcome.Failure.of(FailureClass.STREAM_ERROR, streamError);
        } else if (streamed) {
            outcome = Outcome.SUCCESS;
        } else {
            outcome = decodeWholeBody(nanos);
        }
        finish(outcome, nanos);
    }

    /** A non-streamed 200 response: one JSON body carrying the whole answer and its usage. */
    private Outcome decodeWholeBody(long nanos) {
        StreamChunk chunk;
        try {
            chunk = codec.decode(body.toByteArray());
        } catch (OpenAiCodec.MalformedChunkException e) {
            return Outcome.Failure.of(FailureClass.PROTOCOL, e.getMessage());
        }
        if (chunk.error() != null) {
            return Outcome.Failure.of(FailureClass.STREAM_ERROR, chunk.error());
        }
        usage = chunk.usage();
        finishReason = chunk.finishReason();
        if (chunk.carriesText()) {
            tokenTimes.add(nanos);
            String content = chunk.content() == null ? "" : chunk.content();
            tokenTexts.add(chunk.reasoning() == null ? content : chunk.reasoning() + content);
        }
        return Outcome.SUCCESS;
    }

    private String errorMessage() {
        byte[] bytes = body == null ? new byte[0] : body.toByteArray();
        if (bytes.length == 0) {
            return "(empty body)";
        }
        try {
            StreamChunk chunk = codec.decode(bytes);
            if (chunk.error() != null) {
                return chunk.error();
            }
        } catch (OpenAiCodec.MalformedChunkException ignored) {
            // Not JSON (a proxy's HTML page, plain text): quote the start of it instead.
        }
        String text = new String(bytes, 0, Math.min(bytes.length, 300), StandardCharsets.UTF_8);
        return text.replaceAll("\\s+", " ").trim();
    }

    @Override
    public void onFailure(ExchangeFailure failure, long nanos) {
        Outcome.Failure outcome = switch (failure) {
            case ExchangeFailure.Aborted aborted -> pendingFailure != null ? pendingFailure
                    : Outcome.Failure.of(FailureClass.CANCELLED, aborted.message());
            case ExchangeFailure.ConnectFailed f -> Outcome.Failure.of(FailureClass.CONNECT, "cannot connect to " + f.message());
            case ExchangeFailure.ConnectTimedOut f -> Outcome.Failure.timeout(TimeoutKind.CONNECT, "connect timed out: " + f.message());
            case ExchangeFailure.MalformedResponse f -> Outcome.Failure.of(FailureClass.PROTOCOL, f.message());
            case ExchangeFailure.ConnectionLost f -> firstByteNanos < 0
                    ? Outcome.Failure.of(FailureClass.CONNECT, "connection lost before any response: " + f.message())
                    : Outcome.Failure.of(FailureClass.PROTOCOL, f.message() + " (after " + tokenTimes.size() + " token events)");
        };
        finish(outcome, nanos);
    }

    private void finish(Outcome outcome, long nanos) {
        if (finished) {
            return;
        }
        finished = true;
        for (Future<?> timer : timers) {
            timer.cancel(false);
        }
        RequestTimings timings = new RequestTimings(intendedSendNanos, sentNanos, firstByteNanos, firstTokenNanos,
                firstContentNanos, nanos, tokenTimes.toArray());
        onFinished.accept(this, new FinishedRequest(request, serverRequestId != null ? serverRequestId : requestId, warmup,
                timings, List.copyOf(tokenTexts), status, outcome, usage, finishReason, streamed, retryAfter));
    }
}
