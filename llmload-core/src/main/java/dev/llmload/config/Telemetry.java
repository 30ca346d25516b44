package dev.llmload.config;

import dev.llmload.telemetry.TelemetryConfig;
import dev.llmload.telemetry.engine.EngineKind;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which telemetry to collect during a run (see docs/telemetry.md), read when the configuration is
 * made, so a bad value is refused before the server is contacted.
 *
 * @param serverMetrics  where the server's Prometheus metrics are
 * @param serverKind     force an engine's metric names; null to detect
 * @param gpuMetrics     DCGM exporter URLs, one per node
 * @param nvidiaSmi      how often the local nvidia-smi is polled; null not to poll it
 * @param scrapeInterval how often the HTTP sources are scraped (at least {@link TelemetryConfig#MIN_INTERVAL})
 */
public record Telemetry(
        ServerMetrics serverMetrics,
        EngineKind serverKind,
        List<URI> gpuMetrics,
        Duration nvidiaSmi,
        Duration scrapeInterval) {

    public Telemetry {
        gpuMetrics = List.copyOf(gpuMetrics);
        if (serverMetrics == null) {
            throw new ConfigException("--server-metrics: expected a URL, auto or off");
        }
        try {
            TelemetryConfig.requireInterval("--scrape-interval", scrapeInterval);
            if (nvidiaSmi != null) {
                TelemetryConfig.requireInterval("--nvidia-smi", nvidiaSmi);
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The target's own metrics when it has them; no GPU sources. */
    public static Telemetry auto() {
        return new Telemetry(new ServerMetrics.Auto(), null, List.of(), null, TelemetryConfig.DEFAULT_INTERVAL);
    }

    /** Reads the options as written; null kind detects, null URLs are none. */
    public static Telemetry of(
            String serverMetrics,
            String serverKind,
            List<String> gpuMetrics,
            Duration nvidiaSmi,
            Duration scrapeInterval) {
        return new Telemetry(
                ServerMetrics.parse(serverMetrics),
                engine(serverKind),
                gpuMetrics == null
                        ? List.of()
                        : gpuMetrics.stream()
                                .map(url -> httpUrl("--gpu-metrics", url))
                                .toList(),
                nvidiaSmi,
                scrapeInterval);
    }

    /** The kind as written, null when detected. */
    public String serverKindName() {
        return serverKind == null ? null : serverKind.cliName();
    }

    private static EngineKind engine(String name) {
        if (name == null) {
            return null;
        }
        return EngineKind.byName(name)
                .orElseThrow(() -> new ConfigException("unknown --server-kind '" + name
                        + "' (expected "
                        + Arrays.stream(EngineKind.values())
                                .map(EngineKind::cliName)
                                .collect(Collectors.joining(", ")) + ")"));
    }

    private static URI httpUrl(String option, String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (java.net.URISyntaxException e) {
            throw new ConfigException(option + ": '" + text + "' is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new ConfigException(option + ": '" + text + "' is not an http:// or https:// URL"
                    + (uri.getScheme() == null ? " (add http://)" : ""));
        }
        return uri;
    }

    /** Where the server's Prometheus metrics are scraped from: the target's own, none, or a URL. */
    public sealed interface ServerMetrics {

        /** As written: {@code auto}, {@code off} or the URL. */
        String text();

        /** The target's {@code /metrics} when it answers in Prometheus format. */
        record Auto() implements ServerMetrics {
            @Override
            public String text() {
                return "auto";
            }
        }

        /** No server metrics. */
        record Off() implements ServerMetrics {
            @Override
            public String text() {
                return "off";
            }
        }

        record Url(URI uri) implements ServerMetrics {
            @Override
            public String text() {
                return uri.toString();
            }
        }

        /** Reads {@code auto}, {@code off} or an http(s) URL; null is refused by the record. */
        static ServerMetrics parse(String text) {
            if (text == null) {
                return null;
            }
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "auto" -> new Auto();
                case "off" -> new Off();
                default -> new Url(httpUrl("--server-metrics", text));
            };
        }
    }
}
