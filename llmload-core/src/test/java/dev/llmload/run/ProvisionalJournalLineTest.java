package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.write.RunRebuild;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finished means on disk whatever the response holds: a response of a few MB of text, which the
 * local tokenizer takes long to count, is journaled the moment it ends, before the requests sent
 * after it, and its counted line follows; the report of the run and its rebuild from the journal
 * count its tokens exactly.
 */
class ProvisionalJournalLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Each of the big answer's events: under the default 1 MiB event limit, about 130k tokens. */
    private static final String BIG_TEXT = " the sky is blue and the grass is green,".repeat(20_000);

    private static final int BIG_EVENTS = 4;

    @TempDir
    Path dir;

    @Test
    void aResponseThatTakesLongToCountIsOnDiskBeforeTheRequestsAfterIt() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpServer server = ScriptedHttp.withModel("big");
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            // The first POST is llmload's test request; the second, the run's first request, gets the big answer.
            boolean big = posts.incrementAndGet() == 2;
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < (big ? BIG_EVENTS : 3); i++) {
                    // No usage: the client counts every event's tokens itself.
                    out.write(("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + (big ? BIG_TEXT : " word")
                                    + "\"}}]}\n\n")
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                out.write(
                        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
                                .getBytes(StandardCharsets.UTF_8));
            }
        });
        server.start();
        BenchmarkRun.Result result;
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            RunConfig config = RunConfig.builder()
                    .url(url)
                    .api("chat")
                    .load(Load.closed(1))
                    .numRequests(12L)
                    .inputTokens("16")
                    .outputTokens("16")
                    .tokenizer("cl100k_base")
                    .seed(7)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir)
                    .ioThreads(1)
                    .build();
            result = SimulatorRuns.run(config);
        } finally {
            server.stop(0);
        }

        List<String> lines = Files.readAllLines(dir.resolve(Journal.FILE_NAME));
        List<Long> indexes = new ArrayList<>();
        for (String line : lines) {
            indexes.add(JSON.readTree(line).get("index").asLong());
        }
        // One request at a time: the big one ended before the next was sent, so its line comes first,
        // however long its counting took; its counted line comes later.
        JsonNode first = JSON.readTree(lines.getFirst());
        assertThat(first.get("index").asLong()).isZero();
        assertThat(first.get("counts_pending").asBoolean()).isTrue();
        assertThat(first.get("token_counts")).hasSize(BIG_EVENTS).allMatch(count -> count.asInt() == 1);
        assertThat(indexes).hasSize(13).containsOnlyOnce(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
        int counted = indexes.lastIndexOf(0L);
        assertThat(counted).isPositive();
        assertThat(JSON.readTree(lines.get(counted)).has("counts_pending")).isFalse();

        // The counted line stands in for the provisional one: each request once, with the tokenizer's count.
        List<RequestRecord> records = JournalReader.read(dir.resolve(Journal.FILE_NAME));
        assertThat(records).hasSize(12);
        RequestRecord big =
                records.stream().filter(r -> r.index() == 0).findFirst().orElseThrow();
        int bigTokens = Tokenizers.byName("cl100k_base").count(BIG_TEXT);
        assertThat(big.tokenEventCounts()).containsOnly(bigTokens).hasSize(BIG_EVENTS);
        assertThat(big.outputTokens()).isEqualTo(BIG_EVENTS * bigTokens);
        assertThat(result.records().stream()
                        .mapToLong(RequestRecord::outputTokens)
                        .sum())
                .isEqualTo(BIG_EVENTS * bigTokens + 11 * 3L);

        String report = Files.readString(dir.resolve(ReportFiles.REPORT_JSON));
        RunRebuild.rebuild(dir);
        assertThat(Files.readString(dir.resolve(ReportFiles.REPORT_JSON))).isEqualTo(report);
    }

    @Test
    void aProvisionalLineThatNoCountFollowedIsReadAsWritten() throws Exception {
        Path journal = dir.resolve(Journal.FILE_NAME);
        String provisional =
                "{\"index\":4,\"request_id\":\"r-4\",\"warmup\":false,\"outcome\":\"success\",\"http_status\":200,"
                        + "\"streamed\":true,\"input_tokens\":16,\"input_tokens_source\":\"workload\",\"output_tokens\":2,"
                        + "\"output_tokens_source\":\"local_tokenizer\",\"finish_reason\":\"stop\",\"intended_send_ms\":1.0,"
                        + "\"sent_ms\":1.5,\"first_byte_ms\":2.0,\"ttft_ms\":3.0,\"ttfc_ms\":3.0,\"e2e_latency_ms\":9.0,"
                        + "\"end_ms\":9.5,\"token_times_ms\":[3.0,9.0],\"token_counts\":[1,1],\"counts_pending\":true}";
        String other = provisional
                .replace("\"index\":4,\"request_id\":\"r-4\"", "\"index\":5,\"request_id\":\"r-5\"")
                .replace(",\"counts_pending\":true", "");
        Files.writeString(journal, provisional + "\n" + other + "\n");
        List<RequestRecord> records = JournalReader.read(journal);
        assertThat(records).extracting(RequestRecord::index).containsExactly(5L, 4L);
        assertThat(records.get(1).tokenEventCounts()).containsExactly(1, 1);
        assertThat(records.get(1).outputTokens()).isEqualTo(2);
    }
}
