package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose strings are hostile: a model id and error messages holding a lone UTF-16
 * surrogate (JSON {@code "\ud800"}, which Python and gateways emit) and terminal escape
 * sequences. The run still writes its whole report, and no such character reaches it.
 */
class HostileStringsTest {

    /** JSON text, as the server sends it: a lone surrogate, an OSC title change and a screen clear. */
    private static final String HOSTILE = "bad \\ud800 \\u001b]0;owned\\u0007 \\u001b[2J end";

    @TempDir
    Path dir;

    @Test
    void aLoneSurrogateAndEscapesFromTheServerNeitherBreakTheReportNorReachIt() throws Exception {
        // The id goes into the JSON as written: HOSTILE's escapes reach the client as the server sent them.
        HttpServer server = ScriptedHttp.withModel("model " + HOSTILE);
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            ScriptedHttp.send(exchange, 500, "application/json", "{\"error\":{\"message\":\"" + HOSTILE + "\"}}");
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            RunConfig config = RunConfig.builder()
                    .url(url)
                    .api("chat")
                    .load(Load.closed(1))
                    .numRequests(3L)
                    .inputTokens("16")
                    .outputTokens("4")
                    .tokenizer("cl100k_base")
                    .seed(7)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir)
                    .ioThreads(1)
                    .build();
            BenchmarkRun.Result result = SimulatorRuns.run(config);

            for (String file : List.of("report.json", "summary.csv", "report.html", "requests.jsonl", "run.json")) {
                String text = Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
                assertThat(text)
                        .as(file)
                        .doesNotContain("\u001b")
                        .doesNotContain("\u0007")
                        .contains("\uFFFD");
            }
            String sample =
                    result.report().results().errors().get("http_5xx").samples().getFirst();
            assertThat(sample).contains("bad \uFFFD \\u001b]0;owned\\u0007 \\u001b[2J end");
            assertThat(result.report().model().name())
                    .isEqualTo("model bad \uFFFD \\u001b]0;owned\\u0007 \\u001b[2J end");
        } finally {
            server.stop(0);
        }
    }
}
