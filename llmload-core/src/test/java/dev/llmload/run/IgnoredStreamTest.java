package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.note.Note;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that ignores {@code "stream": true} and answers one JSON body: the requests succeed,
 * have no TTFT or ITL, and the report says why in a note.
 */
class IgnoredStreamTest {

    private static final String BODY =
            "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hi there\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":2}}";

    @TempDir
    Path dir;

    @Test
    void aServerThatIgnoresStreamIsNoted() throws Exception {
        HttpServer server = ScriptedHttp.withModel("whole");
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            ScriptedHttp.send(exchange, 200, "application/json", BODY);
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            RunConfig config = RunConfig.builder()
                    .url(url)
                    .api("chat")
                    .load(Load.closed(1))
                    .numRequests(4L)
                    .inputTokens("16")
                    .outputTokens("2")
                    .tokenizer("cl100k_base")
                    .seed(7)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir)
                    .ioThreads(1)
                    .build();
            BenchmarkRun.Result result = SimulatorRuns.run(config);

            assertThat(result.report().results().requests().succeeded()).isEqualTo(4);
            assertThat(result.report().results().ttftMs().count()).isZero();
            List<Note> ignored = result.report().notes().stream()
                    .filter(n -> n.kind().equals("stream_ignored"))
                    .toList();
            assertThat(ignored).hasSize(1);
            assertThat(ignored.getFirst().message()).contains("4 of 4").contains("TTFT");
        } finally {
            server.stop(0);
        }
    }
}
