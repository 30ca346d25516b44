package dev.llmload.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.config.RunConfig;
import dev.llmload.live.LiveMetrics;
import dev.llmload.live.MetricsEndpoint;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.telemetry.engine.EngineKind;
import dev.llmload.telemetry.engine.EngineProfile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/grafana/llmload.json: every PromQL query's metric names exist. llmload's are held to
 * what {@code --live-metrics} serves after a real open-loop run against the simulator (its sample
 * names, {@code _bucket}, {@code _sum} and {@code _count} included); vLLM's to the simulator's
 * own {@code /metrics}, which uses vLLM's names; SGLang's (no simulator mimics it) to the families
 * llmload's SGLang reader takes from a real SGLang server (EngineProfile, after
 * docs/telemetry.md). A query naming none of the three is refused too.
 */
@Tag("loopback")
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("../deploy/grafana/llmload.json");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", Pattern.MULTILINE);
    private static final Pattern NAME =
            Pattern.compile("(?<![$\\w:])(llmload_[a-z0-9_]+|vllm:[a-z0-9_]+|sglang:[a-z0-9_]+)");

    @TempDir
    Path dir;

    @Test
    void everyQueryNamesMetricsThatAreServed() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        Set<String> llmload;
        Set<String> vllm;
        try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of("ttftMs", 5, "itlMs", 1)));
                HttpClient http = HttpClient.newHttpClient()) {
            RunConfig config = RunConfig.builder()
                    .url(sim.url())
                    .requestRate(50.0)
                    .numRequests(20L)
                    .inputTokens("16")
                    .outputTokens("8")
                    .tokenizer("cl100k_base")
                    .outputDir(dir.resolve("run"))
                    .ioThreads(1)
                    .build();
            BenchmarkRun run = new BenchmarkRun(config, sim.url(), null, "llmload run (test)", "test", r -> {});
            LiveMetrics live = new LiveMetrics();
            run.watch(live);
            try (MetricsEndpoint endpoint =
                    MetricsEndpoint.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), live::latest, 0)) {
                run.execute();
                llmload = sampleNames(
                        get(http, "http://127.0.0.1:" + endpoint.address().getPort() + "/metrics"));
            }
            vllm = sampleNames(get(http, sim.url() + "/metrics"));
        }
        Set<String> sglang = new TreeSet<>(EngineProfile.of(EngineKind.SGLANG).families());

        Set<String> named = new TreeSet<>();
        int queries = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText();
                queries++;
                Matcher m = NAME.matcher(expr);
                boolean any = false;
                while (m.find()) {
                    any = true;
                    named.add(m.group(1));
                }
                assertThat(any)
                        .as("panel '%s' query %s names no known metric", panel.path("title"), expr)
                        .isTrue();
                assertThat(target.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            }
        }
        assertThat(queries).isGreaterThanOrEqualTo(10);
        for (String name : named) {
            if (name.startsWith("llmload_")) {
                assertThat(llmload).as("served by --live-metrics").contains(name);
            } else if (name.startsWith("vllm:")) {
                assertThat(vllm)
                        .as("served by the simulator's /metrics (vLLM's names)")
                        .contains(name);
            } else {
                assertThat(sglang).as("read by llmload from SGLang").contains(family(name));
            }
        }
        // The board shows llmload beside both servers.
        assertThat(named).anyMatch(n -> n.startsWith("llmload_"));
        assertThat(named).anyMatch(n -> n.startsWith("vllm:"));
        assertThat(named).anyMatch(n -> n.startsWith("sglang:"));
    }

    /** A sample's family as Prometheus's text parser names it: without {@code _total}, {@code _bucket}, ... */
    private static String family(String sample) {
        return sample.replaceFirst("(_total|_bucket|_sum|_count)$", "");
    }

    private static Set<String> sampleNames(String body) {
        Set<String> names = new TreeSet<>();
        Matcher m = SAMPLE.matcher(body);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        return response.body();
    }
}
