package dev.llmload.telemetry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.llmload.http.PlainHttp;
import dev.llmload.note.Note;
import dev.llmload.telemetry.engine.EngineProfile;
import dev.llmload.telemetry.gpu.DcgmExporter;
import dev.llmload.telemetry.gpu.GpuReading;
import dev.llmload.telemetry.gpu.GpuSample;
import dev.llmload.telemetry.gpu.NvidiaSmi;
import dev.llmload.telemetry.gpu.NvidiaSmiPoller;
import dev.llmload.telemetry.prometheus.PrometheusTextParser;
import dev.llmload.telemetry.prometheus.Scrape;

/**
 * Scrapes the server's metrics, dcgm-exporters and nvidia-smi on a timer during a run, apart from
 * the load: its own thread and the JDK HTTP client, never the load's Netty event loops.
 *
 * <p>Use: {@link #probe()} before the run (drops targets that do not answer Prometheus text,
 * with a note), {@link #start()} when the run starts, {@link #stop()} when it ends (one final
 * scrape of each target, then the recording).
 *
 * <p>Threads: every field below the HTTP client is owned by the single thread
 * {@code llmload-telemetry}; the public methods hand their work to it and wait. The HTTP
 * client's own threads only carry responses, which are timestamped with {@code System.nanoTime()}
 * as their headers arrive and then passed to the owner thread. Scrapes of different targets run
 * concurrently, and each is cancelled after {@link TelemetryConfig#requestTimeout()}, so a
 * target that hangs or dies only leaves gaps in its own series. The nvidia-smi reader thread
 * (see {@link NvidiaSmiPoller}) likewise passes each line to the owner thread.
 */
public final class TelemetryCollector implements AutoCloseable {

    /** How long the probe waits for a first answer: more than a scrape, as servers may be warming up. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final TelemetryConfig config;
    private final ScheduledExecutorService owner;
    /**
     * Made by the owner thread for the first request, not with the collector: a run that scrapes
     * nothing never pays for building one (class loading and a selector thread). Volatile for
     * {@link #close}, which may run on any thread.
     */
    private volatile HttpClient http;

    private final List<Target> targets = new ArrayList<>();
    private final List<ServerReading> server = new ArrayList<>();
    private final List<GpuReading> gpu = new ArrayList<>();
    private final List<ScrapeGap> gaps = new ArrayList<>();
    private final List<Note> notes = new ArrayList<>();
    private EngineProfile profile;
    private NvidiaSmiPoller nvidiaSmi;
    private ScheduledFuture<?> ticking;
    private boolean probed;

    public TelemetryCollector(TelemetryConfig config) {
        this.config = config;
        this.owner = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("llmload-telemetry").factory());
    }

    /** The HTTP client, made on first use. Owner thread. */
    private HttpClient http() {
        HttpClient client = http;
        if (client == null) {
            HttpClient.Builder builder = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(config.requestTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER);
            client = PlainHttp.only(scraped(config)) ? PlainHttp.withoutTls(builder).build() : builder.build();
            http = client;
        }
        return client;
    }

    /** Every URL the collector may ask. */
    private static List<URI> scraped(TelemetryConfig config) {
        List<URI> urls = new ArrayList<>(config.gpuMetrics());
        if (config.serverMetrics() != null) {
            urls.add(config.serverMetrics());
        }
        return urls;
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
                scrapes.add(scrape(target));
            }
            return scrapes;
        });
        awaitAll(baseline);
        onOwner(() -> {
            if (config.nvidiaSmi() != null) {
                startNvidiaSmi();
            }
            long interval = config.scrapeInterval().toNanos();
            ticking = owner.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.NANOSECONDS);
            return null;
        });
    }

    /** Waits for scrapes started on the owner thread; each records its own failure as a gap. */
    private void awaitAll(List<CompletableFuture<Void>> scrapes) {
        try {
            CompletableFuture.allOf(scrapes.toArray(CompletableFuture[]::new))
                    .get(2 * config.requestTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
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
        List<CompletableFuture<Void>> finals = onOwner(() -> {
            if (ticking != null) {
                ticking.cancel(false);
            }
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (Target target : targets) {
                // A scrape still out was asked for before the end, so the server may have answered
                // it with counters from before the last request finished: scrape once more after it.
                CompletableFuture<Void> out = target.pending;
                pending.add(out == null ? scrape(target) : out.thenComposeAsync(done -> scrape(target), owner));
            }
            return pending;
        });
        awaitAll(finals);
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
        HttpClient client = http;
        if (client != null) {
            client.shutdownNow();
        }
        NvidiaSmiPoller poller = nvidiaSmi;
        if (poller != null) {
            poller.close();
        }
    }

    // ---- owner thread from here on ----

    private void probeServer(URI url) {
        ProbeVerdict verdict = probeOnce(url);
        URI used = url;
        if (verdict instanceof ProbeVerdict.Unusable(String why, boolean json) && json
                && url.getPath() != null && url.getPath().endsWith("/metrics")) {
            URI alternative = url.resolve("/prometheus/metrics");
            ProbeVerdict second = probeOnce(alternative);
            if (second instanceof ProbeVerdict.Usable) {
                note("server_metrics_moved", url + " " + why + " (trtllm-serve's iteration stats); scraping "
                        + alternative + " instead");
                verdict = second;
                used = alternative;
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
                        note("server_kind_mismatch", "--server-kind " + config.serverKind().cliName()
                                + " was given but " + used + " exposes " + detected.get().kind().cliName()
                                + " metric names; reading them as " + config.serverKind().cliName());
                    }
                } else if (detected.isPresent()) {
                    profile = detected.get();
                } else {
                    note("server_kind_unknown", "server metrics at " + used + " expose none of the known engines'"
                            + " names; give --server-kind to read them; not scraped");
                    return;
                }
                server.add(new ServerReading(System.nanoTime(), profile.read(scrape), SimulatorSignals.read(scrape)));
                targets.add(new Target(used, true));
            }
        }
    }

    private void probeGpu(URI url) {
        switch (probeOnce(url)) {
            case ProbeVerdict.Unusable unusable ->
                    note("gpu_metrics_skipped", "GPU metrics at " + url + " " + unusable.why() + "; not scraped");
            case ProbeVerdict.Usable(Scrape scrape) -> {
                if (!DcgmExporter.recognises(scrape)) {
                    note("gpu_metrics_skipped", "GPU metrics at " + url
                            + " expose no DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_FB_USED; not scraped");
                    return;
                }
                long now = System.nanoTime();
                DcgmExporter.read(url.toString(), scrape).forEach(s -> gpu.add(new GpuReading(now, s)));
                targets.add(new Target(url, false));
            }
        }
    }

    private ProbeVerdict probeOnce(URI url) {
        try {
            HttpResponse<Timed> response = http().send(request(url, PROBE_TIMEOUT), Timed.HANDLER);
            Timed body = response.body();
            return ProbeVerdict.of(body.status(), body.contentType(), body.text());
        } catch (HttpTimeoutException e) {
            return new ProbeVerdict.Unusable("did not answer within " + PROBE_TIMEOUT.toMillis() + " ms", false);
        } catch (IOException e) {
            return new ProbeVerdict.Unusable("could not be reached (" + describe(e) + ")", false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ProbeVerdict.Unusable("probe interrupted", false);
        }
    }

    private void startNvidiaSmi() {
        try {
            nvidiaSmi = NvidiaSmiPoller.start(config.nvidiaSmi(), config.nvidiaSmiInterval().toMillis(),
                    reading -> handOff(() -> gpu.add(reading)),
                    why -> handOff(() -> note("nvidia_smi_stopped", why + " during the run; GPU readings end there")));
        } catch (IOException e) {
            note("nvidia_smi_failed", "could not run " + config.nvidiaSmi() + " (" + describe(e) + "); no nvidia-smi readings");
        }
    }

    private void tick() {
        for (Target target : targets) {
            scrape(target);
        }
    }

    /** Starts one scrape unless the last is still out; the future completes once it is recorded. */
    private CompletableFuture<Void> scrape(Target target) {
        if (target.pending != null) {
            return target.pending;
        }
        Duration timeout = config.requestTimeout();
        CompletableFuture<HttpResponse<Timed>> exchange = http().sendAsync(request(target.url, timeout), Timed.HANDLER);
        // Cancelling aborts the exchange and its connection, so a hung target holds nothing.
        ScheduledFuture<?> watchdog = owner.schedule(() -> exchange.cancel(true), timeout.toNanos(), TimeUnit.NANOSECONDS);
        target.pending = exchange.handleAsync((response, failure) -> {
            watchdog.cancel(false);
            target.pending = null;
            record(target, response, failure, timeout);
            return null;
        }, owner);
        return target.pending;
    }

    private void record(Target target, HttpResponse<Timed> response, Throwable failure, Duration timeout) {
        long now = System.nanoTime();
        String source = target.url.toString();
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            String reason = cause instanceof CancellationException || cause instanceof HttpTimeoutException
                    ? "no answer within " + timeout.toMillis() + " ms" : describe(cause);
            gaps.add(new ScrapeGap(now, source, reason));
            return;
        }
        Timed body = response.body();
        if (body.status() != 200) {
            gaps.add(new ScrapeGap(body.nanos(), source, "HTTP " + body.status()));
            return;
        }
        Scrape scrape = PrometheusTextParser.parse(body.text());
        if (scrape.families().isEmpty()) {
            gaps.add(new ScrapeGap(body.nanos(), source, "no readable metrics"));
        } else if (target.server) {
            server.add(new ServerReading(body.nanos(), profile.read(scrape), SimulatorSignals.read(scrape)));
        } else {
            for (GpuSample sample : DcgmExporter.read(source, scrape)) {
                gpu.add(new GpuReading(body.nanos(), sample));
            }
        }
    }

    /** One note per source that had gaps, with the count and the first reason. */
    private void noteGaps() {
        Map<String, List<ScrapeGap>> bySource = new LinkedHashMap<>();
        for (ScrapeGap gap : gaps) {
            bySource.computeIfAbsent(gap.source(), s -> new ArrayList<>()).add(gap);
        }
        bySource.forEach((source, list) -> note("telemetry_gaps", list.size() + " scrape(s) of " + source
                + " failed (first: " + list.getFirst().reason() + "); readings around them are still used"));
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

    private static HttpRequest request(URI url, Duration timeout) {
        return HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Accept", "text/plain;version=0.0.4;q=0.9,*/*;q=0.1")
                .GET()
                .build();
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /** A scrape target; {@code pending} is the scrape in progress, if any. Owner thread only. */
    private static final class Target {
        final URI url;
        final boolean server;
        CompletableFuture<Void> pending;

        Target(URI url, boolean server) {
            this.url = url;
            this.server = server;
        }
    }

    /** A response body with its arrival time, taken when the headers arrive. */
    private record Timed(long nanos, int status, String contentType, String text) {
        static final HttpResponse.BodyHandler<Timed> HANDLER = info -> {
            long arrived = System.nanoTime();
            return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8),
                    text -> new Timed(arrived, info.statusCode(),
                            info.headers().firstValue("content-type").orElse(""), text));
        };
    }
}
