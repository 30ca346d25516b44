package dev.llmload.load;

import dev.llmload.client.ProcessMark;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.Dialect;
import dev.llmload.record.FailureClass;
import dev.llmload.record.InputLog;
import dev.llmload.record.Journal;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.session.SessionSupply;
import dev.llmload.workload.source.RequestSource;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The sending phase of a run, and the one public door into this package: it prepares requests
 * ahead, gets the client ready, then sends the load with the dispatcher that fits it and returns
 * every request's record. The dispatchers, the feed and the recorder stay inside the package.
 *
 * <p>Threads: {@link #getReady} and {@link #send} run on the run's thread, which becomes the
 * dispatcher; {@link #stop} may come from any thread (a signal handler). The feed's thread
 * ({@code llmload-prepare}) runs from {@link #open} to {@link #close}.
 */
public final class LoadPhase implements AutoCloseable {

    private final LoadHttpClient client;
    private final Dialect dialect;
    private final Timeouts timeouts;
    private final LoadPlan plan;
    private final long count;
    private final SessionSupply sessions;
    /** Root sessions to start at most, -1 for no count; a run of independent requests has none. */
    private final long sessionCount;

    private final PreparedFeed feed;
    /** The sender once {@link #send} made it; {@link #stop} reaches it through this. */
    private volatile Sender sender;

    private volatile boolean stopped;
    /** Set by {@link #getReady} on the run's thread. */
    private ProcessMark firstSend;

    private LoadPhase(
            LoadHttpClient client,
            Dialect dialect,
            Timeouts timeouts,
            LoadPlan plan,
            long count,
            SessionSupply sessions,
            long sessionCount,
            PreparedFeed feed) {
        this.client = client;
        this.dialect = dialect;
        this.timeouts = timeouts;
        this.plan = plan;
        this.count = count;
        this.sessions = sessions;
        this.sessionCount = sessionCount;
        this.feed = feed;
    }

    /**
     * Starts preparing {@code source}'s requests (independent requests), or readies
     * {@code sessions} (multi-turn sessions); exactly one of the two is given.
     *
     * @param count        the most requests to send, or -1 for as many as the plan and the source give
     * @param sessionCount the most root sessions to start ({@code --num-sessions}), or -1 for as many as
     *                     the plan, {@code count} and the supply give; -1 without sessions
     */
    public static LoadPhase open(
            RequestSource source,
            SessionSupply sessions,
            LoadHttpClient client,
            Dialect dialect,
            Timeouts timeouts,
            LoadPlan plan,
            long count,
            long sessionCount) {
        if ((source == null) == (sessions == null)) {
            throw new IllegalArgumentException("give requests or sessions, one of the two");
        }
        if (sessions == null && sessionCount >= 0) {
            throw new IllegalArgumentException("a count of sessions needs sessions");
        }
        return new LoadPhase(
                client,
                dialect,
                timeouts,
                plan,
                count,
                sessions,
                sessionCount,
                source == null ? null : new PreparedFeed(source, dialect, count));
    }

    /**
     * What a long-running client would already have done, so the first measured requests do not
     * pay for it: {@code connections} opened, one test request sent, requests prepared ahead, the
     * per-chunk and per-request code compiled (the latter on made-up exchanges with a responder of
     * its own, {@link RequestWarmUp}). Nothing here is timed or counted; {@link #settle} is the
     * last step, just before the clock.
     *
     * <p>The test request goes first, as soon as the connections are open: a server that refuses
     * it is told early, before any of the rest is done for nothing. The feed starts preparing
     * requests as it goes out, so the tokenizer's vocabulary, which the first prompts read, is read
     * while it is on its way rather than before it.
     *
     * @param tokenizer counts the warm-up's tokens where its made-up answers do not, as the run's do
     * @return why the server refused the test request, when it refused it in a way every request
     *         would be refused (credentials, an unknown model or path, a redirect, which llmload
     *         does not follow), or left it unanswered for {@code timeout}; empty otherwise
     * @throws DatasetException the feed could not make the first requests (prompts the tokenizer
     *         cannot make, a file that changed since it was checked): the load would fail alike
     */
    public Optional<String> getReady(int connections, String testRequestId, Tokenizer tokenizer, Duration timeout)
            throws InterruptedException {
        client.preconnect((int) Math.min(connections, count < 0 ? connections : count), timeout);
        firstSend = ProcessMark.now();
        if (feed != null) {
            feed.start(connections);
        }
        FinishedRequest test = TestRequest.send(client, dialect, timeouts, testRequestId, timeout);
        // A server that sends not a byte for a request of 2 tokens within this long (or within the
        // request's own time limit, when that is shorter) would hold every slot of the load alike.
        String tokens = "a request for " + TestRequest.SPEC.maxOutputTokens() + " tokens";
        if (test == null) {
            return Optional.of("no answer within " + timeout.toSeconds() + " s to " + tokens);
        }
        if (test.outcome() instanceof Outcome.Failure failure) {
            if (failure.failureClass() == FailureClass.TIMEOUT
                    && test.timings().firstByteNanos() == RequestTimings.NEVER) {
                return Optional.of("no answer to " + tokens + ": " + failure.message());
            }
            // A redirect is not followed, so a server that redirects the test request redirects every one.
            if (failure.failureClass() == FailureClass.REDIRECT) {
                return Optional.of(failure.message() + "; give the address it points to as --url");
            }
            if (test.httpStatus() == 401 || test.httpStatus() == 403 || test.httpStatus() == 404) {
                return Optional.of(failure.message());
            }
        }
        if (feed != null) {
            feed.awaitReady(timeout);
            feed.throwIfFailed();
        }
        HotPaths.warmUp(dialect);
        RequestWarmUp.runOncePerProcess(dialect, tokenizer, timeout);
        return Optional.empty();
    }

    /**
     * The last step before the clock, once everything else the run does before it is done
     * ({@code run.json}, the telemetry's probe, the journal, the monitors): waits for the JIT to go
     * quiet and collects start-up's garbage. Waited for at the end of {@link #getReady} instead,
     * the compilation of what came after it (Jackson's first serialisation, the probe's parse:
     * some 600 methods) still ran in the load's first second, on the cores the event loops
     * measure on; so did the collector's work for their garbage.
     */
    public void settle() throws InterruptedException {
        HotPaths.awaitQuietCompiler();
        HotPaths.collectStartUpGarbage();
    }

    /**
     * What the process had spent when {@link #getReady} sent the test request, the run's first
     * request; null before that.
     */
    public ProcessMark firstSend() {
        return firstSend;
    }

    /**
     * Sends the load from {@code runStartNanos}, the clock every record's offsets count from, and
     * returns once every request has finished (or the run stopped and {@code grace} ran out) and
     * each is journaled. The records are not returned: the journal holds them, and a run's report is
     * derived from it, so the load's memory does not grow with its requests.
     *
     * @param duration   send nothing intended after this long (null: no time bound)
     * @param warmup     the first this many requests are warm-up
     * @param warmupTime so are requests intended to start within this time of the run's start (null: none)
     * @param inputs     hears the body of every request sent ({@code inputs.jsonl}); null for none
     * @param progress   hears each finished request on the recorder thread
     * @throws IOException      the journal could not be written ({@link dev.llmload.record.JournalWriteException}:
     *                          the run stopped at that write)
     * @throws DatasetException the data failed mid-run; what was in flight was stopped
     */
    public void send(
            Journal journal,
            Tokenizer tokenizer,
            long runStartNanos,
            Duration duration,
            int warmup,
            Duration warmupTime,
            Duration grace,
            String requestIdPrefix,
            InputLog inputs,
            Consumer<RequestRecord> progress)
            throws IOException, InterruptedException {
        journal.anchorWallClock(runStartNanos);
        // A journal that cannot be written ends the run at once: nothing more it finishes could be kept.
        Recorder recorder = new Recorder(journal, tokenizer, runStartNanos, progress, this::stop);
        if (feed != null) {
            // Started by getReady when it ran; a phase sent without it prepares from here.
            feed.start();
        }
        SendContext context = new SendContext(
                client,
                dialect,
                timeouts,
                plan,
                count < 0 ? Long.MAX_VALUE : count,
                duration,
                warmup,
                warmupTime,
                recorder,
                runStartNanos,
                requestIdPrefix,
                inputs);
        Sender chosen = sessions != null
                ? new SessionDispatcher(context, sessions, sessionCount < 0 ? Long.MAX_VALUE : sessionCount)
                : new Dispatcher(context, feed);
        sender = chosen;
        if (stopped) {
            chosen.stop();
        }
        recorder.finishAfter(() -> {
            try {
                chosen.run(grace);
            } catch (DatasetException e) {
                // The data failed mid-run (a dataset line that cannot be read): stop what is in flight.
                chosen.stop();
                throw e;
            }
        });
    }

    /** Stops sending, now or as soon as it starts; requests in flight get the grace period. */
    public void stop() {
        stopped = true;
        Sender current = sender;
        if (current != null) {
            current.stop();
        }
    }

    /** Requests sent and not yet finished, 0 before sending starts. Any thread. */
    public int inFlight() {
        Sender current = sender;
        return current == null ? 0 : current.inFlight();
    }

    @Override
    public void close() {
        if (feed != null) {
            feed.close();
        }
    }
}
