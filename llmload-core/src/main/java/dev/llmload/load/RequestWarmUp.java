package dev.llmload.load;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.Framing;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalSeal;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.source.RequestSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the per-request path {@value #REQUESTS} times before a run's clock: a request written as bytes,
 * its response head read by Netty's decoder, the chunked body read by the exchange's handler, the
 * stream framed and decoded, the request finished and the next one sent from the event loop as a
 * closed loop sends it. {@link HotPaths#warmUp} compiles the per-chunk code this way; this is the
 * code that runs once per request, which at low concurrency (16 streams of 64 tokens finish about 6
 * requests a second) would otherwise stay interpreted for a whole run. Interpreted, a request's end
 * and the next send took the event loop about 400 µs, and with streams that end together the
 * tokens of the others waited behind them: the late gaps of such runs fell at each request's first
 * and last gap.
 *
 * <p>The exchanges go to a responder of its own on the loopback interface, never to the server
 * under test, which answers every request with the dialect's {@link Dialect#sampleStream()}, one
 * chunk per message, as a streaming server writes them. They are journaled into a temporary file
 * of their own, deleted after; nothing of them counts in the run.
 *
 * <p>Threads: the caller is the warm-up's dispatcher thread. The exchanges run on a client of their
 * own ({@code llmload-warm-1}, closed when done); the responder accepts on
 * {@code llmload-warm-accept} and serves each connection on a thread of its own
 * ({@code llmload-warm-serve}), blocking, since it answers only this client; the feed and the
 * recorder have their threads as in a run ({@code llmload-prepare}, {@code llmload-recorder}). All
 * of them end when {@link #run} returns (the event loop's thread a moment after its group has
 * terminated).
 */
final class RequestWarmUp {

    /**
     * The quick compiler looks at a method's calls every 128th call and compiles it from the 200th
     * (later while its queue is long); with the launcher's tenth of those thresholds for this code
     * ({@code -XX:CompileCommand=CompileThresholdScaling}, for {@code run} and {@code sweep}) it
     * looks every 13th or so and compiles from about the 20th, so 256 requests give each
     * per-request method many chances before the clock; 128 were seen to leave one out.
     * LauncherClassDataIT checks that they were compiled in time. Without that option these
     * requests are too few, and a run's own requests may be too.
     */
    static final int REQUESTS = 256;
    /** The most rounds of {@link #REQUESTS} requests; the warm-up stops after one that compiled nothing. */
    static final int MAX_ROUNDS = 4;
    /** Requests in flight at once, each on a connection of its own: the pool is used as a run uses it. */
    private static final int STREAMS = 4;

    /** Set by the first run of this process to warm up; compiled code stays compiled for the next. */
    private static final AtomicBoolean WARMED = new AtomicBoolean();

    private RequestWarmUp() {}

    /**
     * {@link #run}, once the JIT is quiet, for the first run of this process only (a library user's
     * or a test's later runs find the code compiled already), and only where the JVM has the
     * launcher's lowered thresholds for this code: without them these requests are too few to
     * compile it and would only cost their 0.3 s (a JVM of one's own can be given the same
     * {@code -XX:CompileCommand} options; docs/performance.md).
     */
    static void runOncePerProcess(Dialect dialect, Tokenizer tokenizer, Duration limit) throws InterruptedException {
        if (thresholdsLowered() && WARMED.compareAndSet(false, true)) {
            // The quick compiler raises its thresholds while its queue is long (start-up's methods):
            // the per-request code compiles within the warm-up once that queue has drained. The
            // warm-up's own first round fills the queue again (Netty's read path, the codec, the
            // exchange: some hundreds of methods), so the code called least often, once per request,
            // may still be left below its raised threshold: further rounds, each once the queue has
            // drained, until one compiles nothing. Without them about 150 methods (sending, the
            // response's head, the event loop's own) were compiled in the load's first half second.
            HotPaths.awaitQuietCompiler();
            for (int round = 1; round <= MAX_ROUNDS; round++) {
                long compiledMs = HotPaths.compilerMillis();
                run(dialect, tokenizer, limit);
                HotPaths.awaitQuietCompiler();
                if (HotPaths.compilerMillis() == compiledMs) {
                    return;
                }
            }
        }
    }

    /** Whether the JVM was started with the launcher's lower compile thresholds for this package. */
    private static boolean thresholdsLowered() {
        String option = "-XX:CompileCommand=CompileThresholdScaling," + RequestWarmUp.class.getPackageName() + ".";
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream().anyMatch(a -> a.startsWith(option));
    }

    /**
     * Sends {@link #REQUESTS} requests in the run's dialect, under the default time and size limits
     * (a run's own may be too tight for the made-up answer), for at most {@code limit}; returns how
     * many ended as a success. It never fails the run: a warm-up that cannot listen on the loopback
     * interface or write its journal, or whose requests fail, leaves the code cold, as it was before
     * (RequestWarmUpTest is where an answer the path misreads shows).
     *
     * <p>The requests take a run's own path from end to end: a {@link PreparedFeed} prepares them,
     * a {@link Dispatcher} sends them as a closed loop of {@link #STREAMS} (each that ends sends the
     * next from its event loop), and a {@link Recorder} counts their tokens with {@code tokenizer}
     * where the answer does not, and journals them, into a file of its own that is deleted after.
     * Left out, the dispatcher's and the recorder's per-request code (the journal's line among it,
     * some 100 methods) was compiled when the load's first requests ended, on the cores the event
     * loops measure on.
     */
    static int run(Dialect dialect, Tokenizer tokenizer, Duration limit) throws InterruptedException {
        Path journalFile = null;
        try (Responder responder = new Responder(response(dialect));
                LoadHttpClient client = LoadHttpClient.beside(
                        new Endpoint(false, responder.host(), responder.port(), ""), "llmload-warm", limit, false);
                PreparedFeed feed = new PreparedFeed(new Copies(), dialect, REQUESTS)) {
            journalFile = Files.createTempFile("llmload-warm-up-", ".jsonl");
            try (Journal journal = Journal.create(journalFile)) {
                AtomicInteger succeeded = new AtomicInteger();
                long start = System.nanoTime();
                Recorder recorder = new Recorder(
                        journal,
                        tokenizer,
                        start,
                        record -> {
                            if (record.succeeded()) {
                                succeeded.incrementAndGet();
                            }
                        },
                        () -> {});
                feed.start();
                recorder.finishAfter(() -> new Dispatcher(
                                new SendContext(
                                        client,
                                        dialect,
                                        Timeouts.defaults(),
                                        new LoadPlan.ClosedLoop(new ConcurrencyPlan.Fixed(STREAMS)),
                                        REQUESTS,
                                        limit,
                                        0,
                                        null,
                                        recorder,
                                        start,
                                        "warm-up-",
                                        null),
                                feed)
                        .run(Duration.ZERO));
                return succeeded.get();
            }
        } catch (IOException noLoopbackOrJournal) {
            // No loopback interface to listen on, or no room for the journal: the run goes on with the path cold.
            return 0;
        } finally {
            if (journalFile != null) {
                try {
                    // The journal and the seal its writer leaves beside it when it closes whole.
                    Files.deleteIfExists(journalFile);
                    Files.deleteIfExists(JournalSeal.of(journalFile));
                } catch (IOException leftBehind) {
                    // A temporary file the system cleans up.
                }
            }
        }
    }

    /** The test request's small spec, {@link #REQUESTS} times, each with its own index. */
    private static final class Copies implements RequestSource {

        private long next;

        @Override
        public boolean hasNext() {
            return next < REQUESTS;
        }

        @Override
        public RequestSpec next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            RequestSpec spec = TestRequest.SPEC;
            return new RequestSpec(next++, spec.messages(), spec.inputTokens(), spec.maxOutputTokens());
        }

        @Override
        public String describe() {
            return "the warm-up's request";
        }

        @Override
        public String contentHash() {
            return "";
        }

        @Override
        public void close() {}
    }

    /**
     * The whole response to every request: the sample stream as a chunked body of one chunk per
     * message (an SSE event, an NDJSON line), or as a plain body for a dialect that reads it whole.
     */
    private static List<byte[]> response(Dialect dialect) {
        byte[] sample = dialect.sampleStream();
        Framing framing = dialect.streamFraming();
        List<byte[]> writes = new ArrayList<>();
        if (framing == Framing.WHOLE_BODY) {
            writes.add(ascii("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + sample.length
                    + "\r\n\r\n"));
            writes.add(sample);
            return writes;
        }
        writes.add(ascii(
                "HTTP/1.1 200 OK\r\ncontent-type: " + framing.mediaType() + "\r\ntransfer-encoding: chunked\r\n\r\n"));
        String messageEnd = framing.messageEnd();
        String text = new String(sample, StandardCharsets.UTF_8);
        for (int from = 0; from < text.length(); ) {
            int end = text.indexOf(messageEnd, from);
            end = end < 0 ? text.length() : end + messageEnd.length();
            byte[] message = text.substring(from, end).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream chunk = new ByteArrayOutputStream();
            chunk.writeBytes(ascii(Integer.toHexString(message.length) + "\r\n"));
            chunk.writeBytes(message);
            chunk.writeBytes(ascii("\r\n"));
            writes.add(chunk.toByteArray());
            from = end;
        }
        writes.add(ascii("0\r\n\r\n"));
        return writes;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Answers every HTTP/1.1 request on a loopback port with the same response, written in its
     * pieces with a flush after each, keeping connections open between requests.
     */
    private static final class Responder implements AutoCloseable {

        /** A request head longer than this is not the warm-up client's. */
        private static final int MAX_HEAD_BYTES = 64 * 1024;

        private final ServerSocket server;
        private final List<byte[]> response;
        private final List<Thread> threads = new ArrayList<>();

        Responder(List<byte[]> response) throws IOException {
            this.response = response;
            this.server = new ServerSocket(0, STREAMS, InetAddress.getLoopbackAddress());
            start("llmload-warm-accept", this::accept);
        }

        String host() {
            return server.getInetAddress().getHostAddress();
        }

        int port() {
            return server.getLocalPort();
        }

        private void start(String name, Runnable task) {
            synchronized (threads) {
                threads.add(Thread.ofPlatform().name(name).daemon().start(task));
            }
        }

        private void accept() {
            while (true) {
                Socket socket;
                try {
                    socket = server.accept();
                } catch (IOException closed) {
                    return;
                }
                start("llmload-warm-serve", () -> serve(socket));
            }
        }

        private void serve(Socket socket) {
            try (socket;
                    InputStream in = new BufferedInputStream(socket.getInputStream())) {
                socket.setTcpNoDelay(true);
                OutputStream out = socket.getOutputStream();
                while (skipRequest(in)) {
                    for (byte[] piece : response) {
                        out.write(piece);
                        out.flush();
                    }
                }
            } catch (IOException gone) {
                // The client closed the connection: nothing more to answer on it.
            }
        }

        /** Reads one request (its head and a body of its content-length); false at the end of the connection. */
        private static boolean skipRequest(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            long contentLength = 0;
            int headBytes = 0;
            for (int b; (b = in.read()) >= 0; ) {
                if (++headBytes > MAX_HEAD_BYTES) {
                    return false;
                }
                if (b != '\n') {
                    line.append((char) b);
                    continue;
                }
                String header = line.toString().strip();
                line.setLength(0);
                if (header.isEmpty()) {
                    in.skipNBytes(contentLength);
                    return true;
                }
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    contentLength = Long.parseLong(
                            lower.substring("content-length:".length()).strip());
                }
            }
            return false;
        }

        /** Closes the listening socket, then waits for the threads, which end as their connections close. */
        @Override
        public void close() throws InterruptedException {
            try {
                server.close();
            } catch (IOException alreadyClosed) {
                // Nothing to release.
            }
            List<Thread> started;
            synchronized (threads) {
                started = List.copyOf(threads);
            }
            for (Thread thread : started) {
                thread.join(TimeUnit.SECONDS.toMillis(2));
            }
        }
    }
}
