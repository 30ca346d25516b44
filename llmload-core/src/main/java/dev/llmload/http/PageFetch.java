package dev.llmload.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One GET whose whole answer is wanted, beside the load: the server probe before a run, the
 * telemetry's scrapes during it. It goes through a {@link LoadHttpClient}, the code the load runs,
 * so a run needs no second HTTP stack, and it reads at most {@link #MAX_BYTES}: the answer is the
 * server's, and an answer without end must not take the heap with it.
 *
 * <p>Threads: the future completes on the client's event loop, always normally, with the
 * {@link Answer}; the bytes are decoded by whoever calls {@link Answer.Page#text()}.
 */
public final class PageFetch {

    /**
     * The most an answer may hold: 16 MiB. A large server's metrics page or a gateway's model list
     * is a few hundred KiB.
     */
    public static final int MAX_BYTES = 16 << 20;

    /** The reason an answer longer than {@link #MAX_BYTES} fails with. */
    public static final String TOO_LARGE = "answered more than " + (MAX_BYTES >> 20) + " MiB";

    private static final byte[] NO_BODY = new byte[0];

    private PageFetch() {}

    /** What one GET came to. */
    public sealed interface Answer {

        /**
         * A whole answer, timed when its head arrived; the first {@code length} bytes of
         * {@code body} are the page.
         */
        record Page(long nanos, int status, String contentType, byte[] body, int length) implements Answer {

            /** The page as UTF-8 text. */
            public String text() {
                return new String(body, 0, length, StandardCharsets.UTF_8);
            }
        }

        /** No whole answer within the time allowed; the exchange and its connection were dropped. */
        record TimedOut(long nanos) implements Answer {}

        /**
         * The connection failed or broke, the answer was not HTTP, or it went on past
         * {@link #MAX_BYTES} ({@link ExchangeFailure.Aborted}, {@link #TOO_LARGE}).
         */
        record Failed(long nanos, ExchangeFailure failure) implements Answer {}
    }

    /**
     * Sends a GET of {@code requestTarget} (a path under the client's endpoint, with its query)
     * with {@code headers}, and gives up on it after {@code timeout}.
     */
    public static CompletableFuture<Answer> get(
            LoadHttpClient client, String requestTarget, Map<String, String> headers, Duration timeout) {
        Reader reader = new Reader(timeout);
        client.sendAt(new HttpExchangeRequest("GET", requestTarget, headers, NO_BODY), reader, System.nanoTime());
        return reader.answer;
    }

    /** The path and query of {@code url}, as a request line carries them. */
    public static String requestTarget(URI url) {
        return (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    }

    /**
     * Reads one answer. Every method and field belongs to the exchange's event loop;
     * {@link #answer} completes there, once.
     */
    private static final class Reader implements ResponseListener {

        final CompletableFuture<Answer> answer = new CompletableFuture<>();
        private final Duration timeout;
        private io.netty.util.concurrent.Future<?> watchdog;
        private Exchange exchange;
        private long headNanos;
        private int status;
        private String contentType = "";
        private byte[] body = NO_BODY;
        private int length;

        Reader(Duration timeout) {
            this.timeout = timeout;
        }

        @Override
        public void onStart(Exchange started) {
            exchange = started;
            // Aborting drops the exchange's connection too, so a hung server holds nothing.
            watchdog = started.loop()
                    .schedule(
                            () -> {
                                if (answer.complete(new Answer.TimedOut(System.nanoTime()))) {
                                    started.abort("no answer within " + timeout.toMillis() + " ms");
                                }
                            },
                            timeout.toNanos(),
                            TimeUnit.NANOSECONDS);
        }

        @Override
        public void onResponseHead(int status, HttpHeaders headers, long nanos) {
            this.headNanos = nanos;
            this.status = status;
            this.contentType = headers.get(HttpHeaderNames.CONTENT_TYPE, "");
            int declared = headers.getInt(HttpHeaderNames.CONTENT_LENGTH, -1);
            if (declared > MAX_BYTES) {
                exchange.abort(TOO_LARGE);
            } else if (declared > 0) {
                // Sized for what the head announces, up to a mebibyte: a head alone reserves no more.
                body = new byte[Math.min(declared, 1 << 20)];
            }
        }

        @Override
        public void onBodyChunk(ByteBuf chunk, long nanos) {
            int bytes = chunk.readableBytes();
            if (bytes > MAX_BYTES - length) {
                exchange.abort(TOO_LARGE);
                return;
            }
            if (length + bytes > body.length) {
                body = Arrays.copyOf(
                        body, (int) Math.min(MAX_BYTES, Math.max(2L * body.length, length + bytes + 8192L)));
            }
            chunk.getBytes(chunk.readerIndex(), body, length, bytes);
            length += bytes;
        }

        @Override
        public void onComplete(long nanos) {
            watchdog.cancel(false);
            answer.complete(new Answer.Page(headNanos, status, contentType, body, length));
        }

        @Override
        public void onFailure(ExchangeFailure failure, long nanos) {
            if (watchdog != null) {
                watchdog.cancel(false);
            }
            answer.complete(new Answer.Failed(nanos, failure));
        }
    }
}
