package dev.llmload.telemetry;

import dev.llmload.client.SchedulingClass;
import dev.llmload.http.Endpoint;
import dev.llmload.http.ExchangeFailure;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.http.PageFetch;
import dev.llmload.http.PageFetch.Answer;
import dev.llmload.note.Note;
import dev.llmload.telemetry.engine.EngineProfile;
import dev.llmload.telemetry.gpu.DcgmExporter;
import dev.llmload.telemetry.gpu.GpuReading;
import dev.llmload.telemetry.gpu.GpuSample;
import dev.llmload.telemetry.gpu.NvidiaSmiPoller;
import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import dev.llmload.telemetry.prometheus.Scrape;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Scrapes the server's metrics, dcgm-exporters and nvidia-smi on a timer during a run, apart from
 * the load: its own thread and event loop, never the load's.
 *
 * <p>Use: {@link #probe()} before the run (drops targets that do not answer Prometheus text,
 * with a note), {@link #start()} when the run starts, {@link #stop()} when it ends (one final
 * scrape of each target, then the recording).
 *
 * <p>Threads: every field below the clients is owned by the single thread
 * {@code llmload-telemetry}, which also publishes its newest server reading through a volatile
 * field for the live view ({@link #latestServerReading}, read by any thread without waiting); the
 * other public methods hand their work to it and wait. The pages travel
 * on one event loop per scraped host ({@code llmload-telemetry-io-1}, {@link PageFetch} over the
 * load's own {@link LoadHttpClient} code): it timestamps each answer with {@code System.nanoTime()}
 * as its head arrives, gathers the bytes and passes the page to the owner thread, which decodes it
 * and parses the families the readings come from. The load's HTTP code is what a scrape runs
 * because a run has compiled it already: the JDK's client, used once a second, stayed in the
 * interpreter and cost the client's core milliseconds a scrape (docs/performance.md, "The scrape
 * beside the load"). From {@link #start()} to {@link #stop()}, both threads, and nvidia-smi, run in
 * Linux's idle scheduling class where it can be had ({@link SchedulingClass#IDLE}): on a core shared
 * with the load's event loops a scrape waits for them, instead of a token's read waiting for the
 * scrape; a scrape's own timestamp may then be late by what the loops had to do, which a reading a
 * second apart does not feel. Outside the run (the probe, the baseline, the final scrape) there is
 * no load to give way to, and in the idle class these waited for any other program that kept the
 * cores busy, past the probe's timeout: they run in the normal class, and the baseline and the
 * final scrape wait as long as the probe ({@link #OUTSIDE_RUN_TIMEOUT}). Scrapes of different
 * targets run concurrently, and each is abandoned after {@link TelemetryConfig#requestTimeout()}, so a
 * target that hangs or dies only leaves gaps in its own series. The nvidia-smi reader thread
 * (see {@link NvidiaSmiPoller}) likewise passes each line to the owner thread.
 */
public final class TelemetryCollector implements AutoCloseable {

    /** How long the probe waits for a first answer: more than a scrape, as servers may be warming up. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * How long the scrapes just before and just after the run may take: as long as the probe, as
     * nothing is being measured then, and without the window's first and last readings its
     * counters have no baseline or no end.
     */
    static final Duration OUTSIDE_RUN_TIMEOUT = PROBE_TIMEOUT;

    private static final Map<String, String> ACCEPT = Map.of("Accept", "text/plain;version=0.0.4;q=0.9,*/*;q=0.1");

    private final TelemetryConfig config;
    /** {@link TelemetryConfig#requestTimeout()}, worked out once. */
    private final Duration scrapeTimeout;

    private final ScheduledExecutorService owner;
    /**
     * One client per scheme, host and port, made by the owner thread for its first request: a run
     * that scrapes nothing starts no event loop. Concurrent for {@link #close}, which may run on
     * any thread.
     */
    private final Map<Endpoint, LoadHttpClient> clients = new ConcurrentHashMap<>();

    private final List<Target> targets = new ArrayList<>();
    private final List<ServerReading> server = new ArrayList<>();
    private final List<GpuReading> gpu = new ArrayList<>();
    private final List<ScrapeGap> gaps = new ArrayList<>();
    private final List<Note> notes = new ArrayList<>();
    private EngineProfile profile;
    private NvidiaSmiPoller nvidiaSmi;
    private ScheduledFuture<?> ticking;
    private boolean probed;
    /**
     * The kernel's ids of the owner thread and the scraping event loops, which {@link #start()}
     * moves into the idle class and {@link #stop()} moves out of it; read while they are still in
     * the normal class, as a thread in the idle class may wait long to answer. Written and read by
     * the thread that calls those two.
     */
    private volatile List<Long> threadIds = List.of();
    /** The newest reading of the server: written by the owner thread, read by any (the live view). */
    private volatile ServerReading latestServer;

    /** The newest reading of the server's metrics, or null before the first; any thread, never waits. */
    public ServerReading latestServerReading() {
        return latestServer;
    }

    public TelemetryCollector(TelemetryConfig config) {
        this.config = config;
        this.scrapeTimeout = config.requestTimeout();
        this.owner = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("llmload-telemetry").factory());
    }

    /** The client for {@code url}'s scheme, host and port, made on first use. Owner thread. */
    private LoadHttpClient client(URI url) {
        return clients.computeIfAbsent(
                Endpoint.parse(url.toString()).root(),
                o -> LoadHttpClient.beside(o, "llmload-telemetry-io", scrapeTimeout, false));
    }

    /**
     * Asks each URL once and keeps those that answer Prometheus text: a server whose engine is
     * known (forced or detected), dcgm-exporters that expose DCGM fields. A server URL ending in
     * {@code /metrics} that answers JSON (trtllm-serve) is retried at {@code /prometheus/metrics}.
     * Blocks up to {@link #PROBE_TIMEOUT} per URL.
     *
     * @return the notes about what was skipped or changed (also kept for the recording)
     */
    public List<Note> probe() {
        return onOwner(() -> {
            int before = notes.size();
            probed = true;
            if (config.serverMetrics() != null) {
                probeServer(config.serverMetrics());
            }
            for (URI url : config.gpuMetrics()) {
                probeGpu(url);
            }
            return List.copyOf(notes.subList(before, notes.size()));
        });
    }

    /** Starts scraping on the timer, and nvidia-smi if configured. Probes first if not done. */
    public void start() {
        if (!onOwner(() -> probed)) {
            probe();
        }
        // A fresh reading just before the run is the window's baseline: whatever the server
        // counted before (an earlier run, llmload's test request) stays out of the deltas.
        List<CompletableFuture<Void>> baseline = onOwner(() -> {
            List<CompletableFuture<Void>> scrapes = new ArrayList<>();
            for (Target target : targets) {
                scrapes.add(scrape(target, OUTSIDE_RUN_TIMEOUT));
            }
            return scrapes;
        });
        awaitAll(baseline, OUTSIDE_RUN_TIMEOUT);
        // Into the idle class before nvidia-smi starts, so that it is born there too.
        if (!config.isEmpty()) {
            threadIds = threadIds();
            move(SchedulingClass.IDLE);
        }
        onOwner(() -> {
            if (config.nvidiaSmi() != null) {
                startNvidiaSmi();
            }
            long interval = config.scrapeInterval().toNanos();
            ticking = owner.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.NANOSECONDS);
            return null;
        });
    }

    /**
     * The kernel's ids of the owner thread and of the event loops it scrapes on (made by the
     * probe), asked of each thread; none where {@code /proc/thread-self} is not there.
     */
    private List<Long> threadIds() {
        List<Long> ids = new ArrayList<>();
        onOwner(SchedulingClass::currentThreadId).ifPresent(ids::add);
        for (LoadHttpClient client : clients.values()) {
            for (EventLoop loop : client.eventLoops()) {
                try {
                    loop.submit(SchedulingClass::currentThreadId).get().ifPresent(ids::add);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return ids;
                } catch (ExecutionException e) {
                    // a loop already shut down scrapes nothing more
                }
            }
        }
        return ids;
    }

    /**
     * Moves the owner thread and the scraping event loops into {@code schedulingClass}, from the
     * calling thread: the {@code chrt} it runs is born in the caller's class, not the idle one.
     */
    private void move(SchedulingClass schedulingClass) {
        for (long tid : threadIds) {
            schedulingClass.enter(tid);
        }
    }

    /**
     * Waits for scrapes started on the owner thread, each abandoned after {@code timeout}; each
     * records its own failure as a gap.
     */
    private void awaitAll(List<CompletableFuture<Void>> scrapes, Duration timeout) {
        try {
            CompletableFuture.allOf(scrapes.toArray(CompletableFuture[]::new))
                    .get(2 * timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // recorded as gaps by the scrapes themselves
        }
    }

    /**
     * Stops the timer, takes a final scrape of each target (so the window's end has a reading),
     * stops nvidia-smi and returns what was gathered. The collector cannot be restarted.
     */
    public TelemetryRecording stop() {
        // The load is over: nothing to give way to, and in the idle class the final scrape would
        // wait for any other program that keeps the cores busy.
        move(SchedulingClass.NORMAL);
        List<CompletableFuture<Void>> finals = onOwner(() -> {
            if (ticking != null) {
                ticking.cancel(false);
            }
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (Target target : targets) {
                // A scrape still out was asked for before the end, so the server may have answered
                // it with counters from before the last request finished: scrape once more after it.
                CompletableFuture<Void> out = target.pending;
                pending.add(
                        out == null
                                ? scrape(target, OUTSIDE_RUN_TIMEOUT)
                                : out.thenComposeAsync(done -> scrape(target, OUTSIDE_RUN_TIMEOUT), owner));
            }
            return pending;
        });
        awaitAll(finals, scrapeTimeout.plus(OUTSIDE_RUN_TIMEOUT));
        TelemetryRecording recording = onOwner(() -> {
            if (nvidiaSmi != null) {
                nvidiaSmi.close();
            }
            noteGaps();
            return new TelemetryRecording(profile == null ? null : profile.kind(), server, gpu, gaps, notes);
        });
        close();
        return recording;
    }

    /** Stops everything at once, without a final scrape. Safe to call more than once. */
    @Override
    public void close() {
        owner.shutdownNow();
        clients.values().forEach(LoadHttpClient::close);
        NvidiaSmiPoller poller = nvidiaSmi;
        if (poller != null) {
            poller.close();
        }
    }

    // ---- owner thread from here on ----

    private void probeServer(URI url) {
        long askedNanos = System.nanoTime();
        ProbeVerdict verdict = probeOnce(url);
        URI used = url;
        if (verdict instanceof ProbeVerdict.Unusable(String why, boolean json)
                && json
                && url.getPath() != null
                && url.getPath().endsWith("/metrics")) {
            URI alternative = url.resolve("/prometheus/metrics");
            long secondAskedNanos = System.nanoTime();
            ProbeVerdict second = probeOnce(alternative);
            if (second instanceof ProbeVerdict.Usable) {
                note(
                        "server_metrics_moved",
                        url + " " + why + " (trtllm-serve's iteration stats); scraping " + alternative + " instead");
                verdict = second;
                used = alternative;
                askedNanos = secondAskedNanos;
            }
        }
        switch (verdict) {
            case ProbeVerdict.Unusable unusable ->
                note("server_metrics_skipped", "server metrics at " + url + " " + unusable.why() + "; not scraped");
            case ProbeVerdict.Usable(Scrape scrape) -> {
                Optional<EngineProfile> detected = EngineProfile.detect(scrape);
                if (config.serverKind() != null) {
                    profile = EngineProfile.of(config.serverKind());
                    if (detected.isPresent() && detected.get().kind() != config.serverKind()) {
                        note(
                                "server_kind_mismatch",
                                "--server-kind " + config.serverKind().cliName()
                                        + " was given but " + used + " exposes "
                                        + detected.get().kind().cliName()
                                        + " metric names; reading them as "
                                        + config.serverKind().cliName());
                    }
                } else if (detected.isPresent()) {
                    profile = detected.get();
                } else {
                    note(
                            "server_kind_unknown",
                            "server metrics at " + used + " expose none of the known engines'"
                                    + " names; give --server-kind to read them; not scraped");
                    return;
                }
                server.add(new ServerReading(
                        askedNanos, System.nanoTime(), profile.read(scrape), SimulatorSignals.read(scrape)));
                Set<String> read = new HashSet<>(profile.families());
                read.addAll(SimulatorSignals.FAMILIES);
                targets.add(new Target(used, true, read, client(used)));
            }
        }
    }

    private void probeGpu(URI url) {
        switch (probeOnce(url)) {
            case ProbeVerdict.Unusable unusable ->
                note("gpu_metrics_skipped", "GPU metrics at " + url + " " + unusable.why() + "; not scraped");
            case ProbeVerdict.Usable(Scrape scrape) -> {
                if (!DcgmExporter.recognises(scrape)) {
                    note(
                            "gpu_metrics_skipped",
                            "GPU metrics at " + url
                                    + " expose no DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_FB_USED; not scraped");
                    return;
                }
                long now = System.nanoTime();
                DcgmExporter.read(url.toString(), scrape).forEach(s -> gpu.add(new GpuReading(now, s)));
                targets.add(new Target(url, false, DcgmExporter.FAMILIES, client(url)));
            }
        }
    }

    private ProbeVerdict probeOnce(URI url) {
        Answer answer;
        try {
            answer = PageFetch.get(client(url), PageFetch.requestTarget(url), ACCEPT, PROBE_TIMEOUT)
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ProbeVerdict.Unusable("probe interrupted", false);
        } catch (ExecutionException e) {
            return new ProbeVerdict.Unusable("could not be asked (" + describe(e.getCause()) + ")", false);
        }
        return switch (answer) {
            case Answer.Page page -> ProbeVerdict.of(page.status(), page.contentType(), page.text());
            case Answer.TimedOut timedOut ->
                new ProbeVerdict.Unusable("did not answer within " + PROBE_TIMEOUT.toMillis() + " ms", false);
            case Answer.Failed(long nanos, ExchangeFailure failure) ->
                new ProbeVerdict.Unusable(
                        switch (failure) {
                            case ExchangeFailure.ConnectFailed f -> "could not be reached (" + f.message() + ")";
                            case ExchangeFailure.ConnectTimedOut f -> "could not be reached (" + f.message() + ")";
                            case ExchangeFailure.TlsFailed f -> "could not be reached over TLS (" + f.message() + ")";
                            case ExchangeFailure.ConnectionLost f -> "broke off its answer (" + f.message() + ")";
                            case ExchangeFailure.MalformedResponse f -> "did not answer HTTP (" + f.message() + ")";
                            case ExchangeFailure.Aborted f -> f.message();
                        },
                        false);
        };
    }

    private void startNvidiaSmi() {
        try {
            nvidiaSmi = NvidiaSmiPoller.start(
                    config.nvidiaSmi(),
                    config.nvidiaSmiInterval().toMillis(),
                    reading -> handOff(() -> gpu.add(reading)),
                    why -> handOff(() -> note("nvidia_smi_stopped", why + " during the run; GPU readings end there")));
        } catch (IOException e) {
            note(
                    "nvidia_smi_failed",
                    "could not run " + config.nvidiaSmi() + " (" + describe(e) + "); no nvidia-smi readings");
        }
    }

    private void tick() {
        for (Target target : targets) {
            scrape(target, scrapeTimeout);
        }
    }

    /**
     * Starts one scrape, abandoned after {@code timeout}, unless the last is still out; the future
     * completes once it is recorded.
     */
    private CompletableFuture<Void> scrape(Target target, Duration timeout) {
        if (target.pending != null) {
            return target.pending;
        }
        long askedNanos = System.nanoTime();
        target.pending = PageFetch.get(target.client, target.requestTarget, ACCEPT, timeout)
                .thenAcceptAsync(
                        answer -> {
                            target.pending = null;
                            record(target, askedNanos, timeout, answer);
                        },
                        owner);
        return target.pending;
    }

    private void record(Target target, long askedNanos, Duration timeout, Answer answer) {
        String source = target.url.toString();
        switch (answer) {
            case Answer.TimedOut(long nanos) ->
                gaps.add(new ScrapeGap(nanos, source, "no answer within " + timeout.toMillis() + " ms"));
            case Answer.Failed(long nanos, ExchangeFailure failure) ->
                gaps.add(new ScrapeGap(nanos, source, failure.message()));
            case Answer.Page page
            when page.status() != 200 -> gaps.add(new ScrapeGap(page.nanos(), source, "HTTP " + page.status()));
            case Answer.Page page -> {
                // Only what is read: most of a page is families no signal comes from.
                Scrape scrape = PrometheusTextParser.parse(page.text(), target.families);
                if (scrape.families().isEmpty()) {
                    gaps.add(new ScrapeGap(page.nanos(), source, "no readable metrics"));
                } else if (target.server) {
                    ServerReading reading = new ServerReading(
                            askedNanos, page.nanos(), profile.read(scrape), SimulatorSignals.read(scrape));
                    server.add(reading);
                    latestServer = reading;
                } else {
                    for (GpuSample sample : DcgmExporter.read(source, scrape)) {
                        gpu.add(new GpuReading(page.nanos(), sample));
                    }
                }
            }
        }
    }

    /** One note per source that had gaps, with the count and the first reason. */
    private void noteGaps() {
        Map<String, List<ScrapeGap>> bySource = new LinkedHashMap<>();
        for (ScrapeGap gap : gaps) {
            bySource.computeIfAbsent(gap.source(), s -> new ArrayList<>()).add(gap);
        }
        bySource.forEach((source, list) -> note(
                "telemetry_gaps",
                list.size() + " scrape(s) of " + source + " failed (first: "
                        + list.getFirst().reason() + "); readings around them are still used"));
    }

    private void note(String kind, String message) {
        notes.add(new Note(kind, message));
    }

    /** Runs {@code work} on the owner thread later; dropped once the collector is stopped. */
    private void handOff(Runnable work) {
        try {
            owner.execute(work);
        } catch (RejectedExecutionException stopped) {
            // the recording is already taken
        }
    }

    private <T> T onOwner(java.util.concurrent.Callable<T> work) {
        try {
            return owner.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the telemetry thread", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("telemetry thread failed", e.getCause());
        }
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /**
     * A scrape target: {@code families} are those its readings are made of; {@code pending} is the
     * scrape in progress, if any. Owner thread only.
     */
    private static final class Target {
        final URI url;
        final boolean server;
        final Set<String> families;
        final LoadHttpClient client;
        final String requestTarget;
        CompletableFuture<Void> pending;

        Target(URI url, boolean server, Set<String> families, LoadHttpClient client) {
            this.url = url;
            this.server = server;
            this.families = Set.copyOf(families);
            this.client = client;
            this.requestTarget = PageFetch.requestTarget(url);
        }
    }
}
