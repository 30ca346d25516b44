package dev.llmload.config;

import com.fasterxml.jackson.databind.util.StdConverter;
import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The layout of a {@link RunConfig} in report.json's {@code config} section: the same keys,
 * order and values as every earlier llmload wrote, so old reports still read and
 * {@code --config report.json} repeats them. Reading goes through the records' constructors, so a
 * report's configuration is checked as a command line is; a parameter an old report recorded but
 * its run never used (a burstiness without gamma arrivals, a rate beside a trace) is dropped.
 */
final class RunConfigJson {

    private RunConfigJson() {}

    /** The {@code config} section. */
    record Wire(String url, ApiKind api, String model, boolean stream, boolean ignoreEos, WireLoad load,
                Long numRequests, Duration duration, int warmup, Duration warmupTime, WireData data, long seed,
                Timeouts timeouts, WireTelemetry telemetry, Duration grace, Path outputDir,
                Map<String, String> metadata, List<String> notes, boolean insecure, int ioThreads, String scenario,
                String slo, List<String> exports) {}

    /** @param mode {@code closed} or {@code open} (a trace is an open loop of arrival {@code trace}) */
    record WireLoad(String mode, Integer concurrency, Double requestRate, String arrival, Double burstiness,
                    Integer maxConcurrency, String profile) {}

    record WireData(String inputTokens, String outputTokens, Double rangeRatio, Path dataset, String datasetFormat,
                    String sharedPrefix, Path trace, Double traceSpeed, String tokenizer, WireSessions sessions) {}

    record WireSessions(String turns, String thinkTimeMs, Integer maxSessions) {}

    /** @param nvidiaSmi {@code nvidia-smi} when it is polled, else null */
    record WireTelemetry(String serverMetrics, String serverKind, List<String> gpuMetrics, String nvidiaSmi,
                         Duration nvidiaSmiInterval, Duration scrapeInterval) {}

    private static final Duration DEFAULT_SMI_INTERVAL = Duration.ofSeconds(1);

    static final class ToWire extends StdConverter<RunConfig, Wire> {
        @Override
        public Wire convert(RunConfig c) {
            Target t = c.target();
            WireLoad load = switch (c.load()) {
                case Load.Closed closed -> new WireLoad("closed", closed.concurrency(), null, null, null, null,
                        closed.profile());
                case Load.Open open -> new WireLoad("open", null, open.requestRate(), open.arrival().cliName(),
                        open.burstiness(), open.maxConcurrency(), open.profile());
                case Load.Trace trace -> new WireLoad("open", null, null, "trace", null, trace.maxConcurrency(), null);
            };
            Data d = c.data();
            Sessions s = c.sessions();
            Path trace = c.load() instanceof Load.Trace replay ? replay.file() : null;
            double speed = c.load() instanceof Load.Trace replay ? replay.speed() : 1.0;
            WireData data = new WireData(d.inputTokens().text(), d.outputTokens().text(), d.rangeRatio(), d.dataset(),
                    d.datasetFormat(), d.sharedPrefix(), trace, speed, d.tokenizer(),
                    s == null ? null : new WireSessions(s.turns().text(),
                            s.thinkTimeMs() == null ? null : s.thinkTimeMs().text(), s.maxSessions()));
            Telemetry m = c.telemetry();
            WireTelemetry telemetry = new WireTelemetry(m.serverMetrics(), m.serverKind(), m.gpuMetrics(),
                    m.nvidiaSmi() == null ? null : "nvidia-smi",
                    m.nvidiaSmi() == null ? DEFAULT_SMI_INTERVAL : m.nvidiaSmi(), m.scrapeInterval());
            Bounds b = c.bounds();
            Output o = c.output();
            return new Wire(t.url() == null ? null : t.url().text(), t.api(), t.model(), t.stream(), t.ignoreEos(),
                    load, b.numRequests(), b.duration(), b.warmup(), b.warmupTime(), data, c.seed(), b.timeouts(),
                    telemetry, b.grace(), o.dir(), o.metadata(), o.notes(), t.insecure(), c.client().ioThreads(),
                    c.scenario(), c.slo() == null ? null : c.slo().text(), o.exports());
        }
    }

    static final class FromWire extends StdConverter<Wire, RunConfig> {
        @Override
        public RunConfig convert(Wire w) {
            WireData d = w.data();
            WireLoad l = w.load();
            Load load;
            if ("closed".equals(l.mode())) {
                load = Load.Closed.of(l.concurrency(), l.profile());
            } else if ("trace".equals(l.arrival())) {
                load = new Load.Trace(d.trace(), d.traceSpeed() == null ? 1.0 : d.traceSpeed(), l.maxConcurrency());
            } else {
                Load.Arrival arrival = l.arrival() == null ? Load.Arrival.POISSON : Load.Arrival.parse(l.arrival());
                load = Load.Open.of(l.requestRate(), arrival, arrival == Load.Arrival.GAMMA ? l.burstiness() : null,
                        l.maxConcurrency(), l.profile());
            }
            WireSessions s = d.sessions();
            Sessions sessions = s == null ? null : new Sessions(Lengths.parse("--sessions", s.turns()),
                    Lengths.parse("--think-time", s.thinkTimeMs()), s.maxSessions());
            WireTelemetry t = w.telemetry();
            return new RunConfig(
                    new Target(Target.ServerUrl.parse(w.url()), w.api(), w.model(), w.stream(), w.ignoreEos(),
                            w.insecure()),
                    load,
                    Data.of(d.inputTokens(), d.outputTokens(), d.rangeRatio(), d.dataset(), d.datasetFormat(),
                            d.sharedPrefix(), d.tokenizer()),
                    sessions,
                    new Bounds(w.numRequests(), w.duration(), w.warmup(), w.warmupTime(),
                            w.timeouts() == null ? Timeouts.defaults() : w.timeouts(), w.grace()),
                    new Client(w.ioThreads()),
                    new Telemetry(t.serverMetrics(), t.serverKind(), t.gpuMetrics() == null ? List.of() : t.gpuMetrics(),
                            t.nvidiaSmi() == null ? null : t.nvidiaSmiInterval(), t.scrapeInterval()),
                    new Output(w.outputDir(), w.exports() == null ? List.of() : w.exports(),
                            w.metadata() == null ? Map.of() : w.metadata(), w.notes() == null ? List.of() : w.notes()),
                    SloLimits.parse(w.slo()), w.seed(), w.scenario());
        }
    }
}
