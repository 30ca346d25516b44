package dev.llmload.load;

import dev.llmload.http.Exchange;
import dev.llmload.http.ExchangeFailure;
import dev.llmload.http.ResponseListener;
import dev.llmload.http.ServerText;
import dev.llmload.http.sse.StreamFramer;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.MalformedMessageException;
import dev.llmload.protocol.ResponseDecoder;
import dev.llmload.protocol.ResponseEvents;
import dev.llmload.protocol.Usage;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.ServerTimings;
import dev.llmload.record.TimeoutKind;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.concurrent.Future;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * One request in flight: turns the bytes of its response into timestamps and an outcome.
 * Confined to the event loop of its exchange: the dispatcher sets it up before the send, and every
 * callback, timer and {@link #cancel} runs on that loop afterwards.
 *
 * <p>It measures from typed {@link ResponseEvents} and does not know which dialect it speaks: the
 * response is cut into messages by its framing (SSE events, NDJSON lines, or the whole body), each message
 * carrying the time of the network read that completed it, and the dialect's
 * {@link ResponseDecoder} reads a message only after that time was taken.
 */
final class RequestExecution implements ResponseListener, StreamFramer.Listener, ResponseEvents {

    /** Error bodies are kept up to this size for the failure message. */
    private static final int MAX_ERROR_BODY = 8 * 1024;

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    /** What the record needs of the request; its body went to the connection. */
    private final RequestFacts request;

    private final String requestId;
    private final boolean warmup;
    private final long intendedSendNanos;
    /**
     * When the request left the dispatcher, then (from {@link #onStart}) when its event loop took
     * it up: the send time TTFT and E2E count from. Taking it on the loop keeps the hand-over
     * between threads out of every latency, while a connection opened for the request stays in.
     */
    private long sentNanos;

    private final Dialect dialect;
    private final Timeouts timeouts;
    private final BiConsumer<RequestExecution, FinishedRequest> onFinished;

    /** The exchange as the loop knows it (set in {@link #onStart}). */
    private Exchange exchange;
    /** The same exchange as other threads know it, for {@link #cancel}. */
    private volatile Exchange handle;
    /** Frames a streamed answer into messages; null for a response read whole. */
    private StreamFramer framer;

    private ResponseDecoder decoder;
    private ByteArrayOutputStream body;
    private int status;
    /** Where a 3xx answer pointed, for its failure message. */
    private String location;

    private String retryAfter;
    /** The body's Content-Encoding when it is not plain (llmload asks for none and decodes none); else null. */
    private String contentEncoding;

    private long firstByteNanos = RequestTimings.NEVER;
    private long firstTokenNanos = RequestTimings.NEVER;
    private long firstContentNanos = RequestTimings.NEVER;
    private long lastActivityNanos;
    /** Each token event's time and text. */
    private final TokenEvents tokenEvents = new TokenEvents();
    /** The server's token count of each token event, when the dialect gives them (-1: not given); else null. */
    private LongList tokenCounts;

    private ServerTimings serverTimings;
    private Usage usage;
    private String finishReason;
    private boolean streamed;
    private boolean endMarkerSeen;
    private String streamError;
    private Outcome.Failure pendingFailure;
    /** The one timer of {@link #armTimer}, while armed. */
    private Future<?> timer;
    /** Body bytes received so far, against {@link ResponseLimits#maxResponseBytes}. */
    private long responseBytes;
    /** Body bytes received since the last complete stream event, against {@link ResponseLimits#maxEventBytes}. */
    private long pendingEventBytes;

    private boolean finished;

    RequestExecution(
            RequestFacts request,
            String requestId,
            boolean warmup,
            long intendedSendNanos,
            long sentNanos,
            Dialect dialect,
            Timeouts timeouts,
            BiConsumer<RequestExecution, FinishedRequest> onFinished) {
        this.request = request;
        this.requestId = requestId;
        this.warmup = warmup;
        this.intendedSendNanos = intendedSendNanos;
        this.sentNanos = sentNanos;
        this.dialect = dialect;
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
        sentNanos = System.nanoTime();
        armTimer();
    }

    /**
     * Arms the request's one timer for the earliest moment one of its time limits can run out, if
     * any: one scheduled task per request, not one per limit, and none left behind when it ends.
     */
    private void armTimer() {
        long next = Math.min(totalDeadline(), Math.min(firstTokenDeadline(), idleDeadline()));
        if (next != NO_DEADLINE) {
            timer = exchange.loop()
                    .schedule(this::onTimer, Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /** The timer went off: the earliest limit that has run out ends the request, else it waits for the next. */
    private void onTimer() {
        timer = null;
        if (finished) {
            return;
        }
        long now = System.nanoTime();
        long total = totalDeadline();
        long firstToken = firstTokenDeadline();
        long idle = idleDeadline();
        if (total <= now && total <= firstToken && total <= idle) {
            timeOut(
                    TimeoutKind.TOTAL,
                    "no complete response within " + timeouts.total().toMillis() + " ms");
        } else if (firstToken <= now && firstToken <= idle) {
            timeOut(
                    TimeoutKind.FIRST_TOKEN,
                    "no token within " + timeouts.firstToken().toMillis() + " ms");
        } else if (idle <= now) {
            timeOut(
                    TimeoutKind.IDLE,
                    "stream idle for more than " + timeouts.idle().toMillis() + " ms");
        } else {
            armTimer();
        }
    }

    private long totalDeadline() {
        return timeouts.total() == null
                ? NO_DEADLINE
                : sentNanos + timeouts.total().toNanos();
    }

    private long firstTokenDeadline() {
        return timeouts.firstToken() == null || firstTokenNanos >= 0
                ? NO_DEADLINE
                : sentNanos + timeouts.firstToken().toNanos();
    }

    /** Once text has started: the last read plus the idle limit (each read moves it on; the timer looks when it goes off). */
    private long idleDeadline() {
        return timeouts.idle() == null || firstTokenNanos < 0
                ? NO_DEADLINE
                : lastActivityNanos + timeouts.idle().toNanos();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
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
        // Cancelled before its event loop took it up (a send planned ahead): only the handle exists.
        (exchange != null ? exchange : handle).abort(failure.message());
    }

    @Override
    public void onResponseHead(int status, HttpHeaders headers, long nanos) {
        this.status = status;
        this.firstByteNanos = nanos;
        this.lastActivityNanos = nanos;
        this.location = headers.get(HttpHeaderNames.LOCATION);
        this.retryAfter = headers.get(HttpHeaderNames.RETRY_AFTER);
        String encoding = headers.get(HttpHeaderNames.CONTENT_ENCODING);
        if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("identity")) {
            contentEncoding = encoding.trim();
            if (status == 200) {
                // Its bytes would read as garbage to every decoder: say what they are instead.
                abortWith(Outcome.Failure.of(
                        FailureClass.PROTOCOL,
                        "the response body is " + contentEncoding
                                + "-encoded (Content-Encoding: " + contentEncoding + "), which llmload did not ask for"
                                + " and does not decode"));
            }
        }
        String contentType = headers.get(HttpHeaderNames.CONTENT_TYPE, "");
        framer = Framers.of(dialect.streamFraming().forResponse(status, contentType), this);
        if (framer != null) {
            streamed = true;
            decoder = dialect.newDecoder(this);
        } else {
            body = new ByteArrayOutputStream();
        }
    }

    @Override
    public void onBodyChunk(ByteBuf chunk, long nanos) {
        if (finished || pendingFailure != null) {
            return;
        }
        lastActivityNanos = nanos;
        responseBytes += chunk.readableBytes();
        pendingEventBytes += chunk.readableBytes();
        ResponseLimits limits = timeouts.limits();
        // Checked here as well as by the timer: a server that never pauses keeps this loop reading,
        // and the deadline must hold whatever the decoding costs.
        if (timeouts.total() != null && nanos - sentNanos >= timeouts.total().toNanos()) {
            timeOut(
                    TimeoutKind.TOTAL,
                    "no complete response within " + timeouts.total().toMillis() + " ms");
        } else if (responseBytes > (framer == null ? limits.heldBodyBytes() : limits.maxResponseBytes())) {
            if (framer == null && status == 200) {
                // Nothing will read an answer cut short: its bytes (up to 64 MiB) go now, not when
                // the request's last reference does, so that the next one's do not meet them in the heap.
                body = null;
            }
            abortWith(Outcome.Failure.of(FailureClass.PROTOCOL, limits.responseTooLarge(framer == null)));
        } else if (framer != null && pendingEventBytes > limits.heldEventBytes()) {
            abortWith(Outcome.Failure.of(FailureClass.PROTOCOL, limits.eventTooLarge()));
        } else if (framer != null) {
            framer.feed(chunk, nanos);
        } else if (body.size() < MAX_ERROR_BODY || status == 200) {
            // Straight from the buffer: a copy of each chunk first doubled what a big body cost.
            try {
                chunk.getBytes(chunk.readerIndex(), body, chunk.readableBytes());
            } catch (IOException cannotHappen) {
                throw new UncheckedIOException(cannotHappen); // a ByteArrayOutputStream does not throw
            }
        }
    }

    /** One framed message of the stream, completed by the read at {@code nanos}; its bytes are valid only during the call. */
    @Override
    public void onMessage(String eventType, byte[] data, int offset, int length, long nanos) {
        pendingEventBytes = 0;
        if (finished || pendingFailure != null) {
            return;
        }
        try {
            decoder.message(eventType, data, offset, length, nanos);
        } catch (MalformedMessageException e) {
            abortWith(Outcome.Failure.of(FailureClass.PROTOCOL, e.getMessage()));
        } catch (RuntimeException e) {
            // Server bytes must never throw out of the event loop: whatever a decoder missed is a protocol failure.
            abortWith(Outcome.Failure.of(FailureClass.PROTOCOL, "unreadable message: " + e));
        }
    }

    @Override
    public void text(String content, String reasoning, long nanos) {
        if (pendingFailure != null) {
            return;
        }
        int maxTokens = request.maxOutputTokens();
        if (tokenEvents.size() >= timeouts.limits().maxTokenEvents(maxTokens)) {
            abortWith(
                    Outcome.Failure.of(FailureClass.PROTOCOL, timeouts.limits().tokenEventsExceeded(maxTokens)));
            return;
        }
        // A whole body's text arrives with its end: one token event, but no first token to time.
        if (streamed) {
            if (firstTokenNanos < 0) {
                firstTokenNanos = nanos;
                if (timeouts.idle() != null) {
                    // From now on the idle limit may run out first.
                    cancelTimer();
                    armTimer();
                }
            }
            if (firstContentNanos < 0 && content != null) {
                firstContentNanos = nanos;
            }
        }
        tokenEvents.add(nanos - sentNanos, reasoning, content);
    }

    @Override
    public void tokenCount(int tokens) {
        if (tokenCounts == null) {
            tokenCounts = new LongList();
        }
        while (tokenCounts.size() < tokenEvents.size() - 1) {
            tokenCounts.add(-1);
        }
        if (tokenCounts.size() == tokenEvents.size() - 1) {
            tokenCounts.add(tokens);
            if (tokens >= 1 && request.session() == null) {
                // The recorder takes the server's count and no next turn carries the answer: nothing reads this text.
                tokenEvents.dropLastText();
            }
        }
    }

    @Override
    public void serverTimings(ServerTimings timings) {
        serverTimings = timings;
    }

    @Override
    public void usage(Usage reported) {
        usage = reported;
    }

    @Override
    public void finishReason(String reason) {
        finishReason = reason;
    }

    @Override
    public void error(String message) {
        streamError = message;
    }

    @Override
    public void endMarker() {
        endMarkerSeen = true;
    }

    @Override
    public void onComplete(long nanos) {
        if (framer != null) {
            framer.endOfStream();
        }
        Outcome outcome;
        if (pendingFailure != null) {
            outcome = pendingFailure;
        } else if (status >= 300 && status < 400) {
            outcome = Outcome.Failure.of(
                    FailureClass.REDIRECT,
                    "HTTP " + status + " redirect to " + (location == null ? "(no Location header)" : location)
                            + " (not followed)");
        } else if (status != 200) {
            outcome = Outcome.Failure.of(FailureClass.forHttpStatus(status), "HTTP " + status + ": " + errorMessage());
        } else if (streamError != null) {
            outcome = Outcome.Failure.of(FailureClass.STREAM_ERROR, streamError);
        } else if (streamed && !endMarkerSeen && dialect.endMarker() != null) {
            outcome = Outcome.Failure.of(
                    FailureClass.PROTOCOL,
                    "the stream ended without " + dialect.endMarker() + " (after " + tokenEvents.size()
                            + " token events)");
        } else if (streamed) {
            outcome = Outcome.SUCCESS;
        } else {
            outcome = decodeWholeBody(nanos);
        }
        finish(outcome, nanos);
    }

    /** A non-streamed 200 response: one body carrying the whole answer and its usage. */
    private Outcome decodeWholeBody(long nanos) {
        try {
            dialect.newDecoder(this).body(body.toByteArray(), nanos);
        } catch (MalformedMessageException e) {
            return Outcome.Failure.of(FailureClass.PROTOCOL, e.getMessage());
        } catch (RuntimeException e) {
            return Outcome.Failure.of(FailureClass.PROTOCOL, "unreadable body: " + e);
        }
        return streamError != null ? Outcome.Failure.of(FailureClass.STREAM_ERROR, streamError) : Outcome.SUCCESS;
    }

    private String errorMessage() {
        byte[] bytes = body == null ? new byte[0] : body.toByteArray();
        if (bytes.length == 0) {
            return "(empty body)";
        }
        if (contentEncoding != null) {
            return "(a " + contentEncoding + "-encoded body, not decoded: llmload did not ask for it)";
        }
        String message = dialect.errorMessage(bytes);
        if (message != null) {
            return message;
        }
        // Not the dialect's error shape (a proxy's HTML page, plain text): quote the start of it instead.
        String text = new String(bytes, 0, Math.min(bytes.length, 300), StandardCharsets.UTF_8);
        return text.replaceAll("\\s+", " ").trim();
    }

    @Override
    public void onFailure(ExchangeFailure failure, long nanos) {
        Outcome.Failure outcome = switch (failure) {
            case ExchangeFailure.Aborted aborted ->
                pendingFailure != null ? pendingFailure : Outcome.Failure.of(FailureClass.CANCELLED, aborted.message());
            case ExchangeFailure.ConnectFailed f ->
                Outcome.Failure.of(FailureClass.CONNECT, "cannot connect to " + f.message());
            case ExchangeFailure.ConnectTimedOut f ->
                Outcome.Failure.timeout(TimeoutKind.CONNECT, "connect timed out: " + f.message());
            case ExchangeFailure.TlsFailed f ->
                Outcome.Failure.of(FailureClass.CONNECT, "TLS handshake failed: " + f.message());
            case ExchangeFailure.MalformedResponse f -> Outcome.Failure.of(FailureClass.PROTOCOL, f.message());
            case ExchangeFailure.ConnectionLost f ->
                firstByteNanos < 0
                        ? Outcome.Failure.of(
                                FailureClass.CONNECT, "connection lost before any response: " + f.message())
                        : Outcome.Failure.of(
                                FailureClass.PROTOCOL,
                                f.message() + " (after " + tokenEvents.size() + " token events)");
        };
        finish(outcome, nanos);
    }

    private void finish(Outcome outcome, long nanos) {
        if (finished) {
            return;
        }
        finished = true;
        cancelTimer();
        // The one place where what the server said becomes llmload's record of it.
        if (outcome instanceof Outcome.Failure failure && ServerText.clean(failure.message()) != failure.message()) {
            outcome = new Outcome.Failure(
                    failure.failureClass(), failure.timeoutKind(), ServerText.clean(failure.message()));
        }
        // Every moment after the send on the token events' microsecond grid, so that they keep their order.
        RequestTimings timings = new RequestTimings(
                intendedSendNanos,
                sentNanos,
                TokenEvents.atMicroseconds(firstByteNanos, sentNanos),
                TokenEvents.atMicroseconds(firstTokenNanos, sentNanos),
                TokenEvents.atMicroseconds(firstContentNanos, sentNanos),
                TokenEvents.atMicroseconds(nanos, sentNanos),
                tokenEvents.times(sentNanos));
        onFinished.accept(
                this,
                new FinishedRequest(
                        request,
                        requestId,
                        warmup,
                        timings,
                        tokenEvents.texts(),
                        serverTokenCounts(),
                        status,
                        outcome,
                        usage,
                        ServerText.clean(finishReason),
                        streamed,
                        ServerText.clean(retryAfter),
                        endMarkerSeen,
                        serverTimings));
    }

    /** The server's count for each token event (-1 where it gave none), or null when it gave none at all. */
    private int[] serverTokenCounts() {
        if (tokenCounts == null) {
            return null;
        }
        long[] given = tokenCounts.toArray();
        int[] counts = new int[tokenEvents.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = i < given.length ? (int) given[i] : -1;
        }
        return counts;
    }
}
