package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.RunConfig;
import dev.llmload.record.RequestRecord;
import dev.llmload.run.BenchmarkRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How stream events become TTFT, TTFC and token times, against scripted wire behaviour. */
@Tag("loopback")
class StreamMeasurementTest {

    @TempDir
    Path dir;

    private static String chunk(String delta) {
        return "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":" + delta
                + ",\"finish_reason\":null}]}\n\n";
    }

    private RequestRecord runOne(List<ScriptedSseServer.Step> steps) throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(steps)) {
            RunConfig config = RunConfig.builder()
                    .url(server.url())
                    .concurrency(1)
                    .numRequests(1L)
                    .inputTokens("16")
                    .outputTokens("4")
                    .tokenizer("cl100k_base")
                    .seed(1)
                    .grace(Duration.ofSeconds(5))
                    .outputDir(dir)
                    .ioThreads(1)
                    .build();
            List<RequestRecord> records = new BenchmarkRun(config, server.url(), null, "t", "t", r -> {})
                    .execute()
                    .journaledRecords();
            assertThat(records).hasSize(1);
            return records.getFirst();
        }
    }

    @Test
    void aRoleOnlyFirstChunkDoesNotSetTtft() throws Exception {
        RequestRecord record = runOne(List.of(
                new ScriptedSseServer.Step(chunk("{\"role\":\"assistant\",\"content\":\"\"}"), 150),
                new ScriptedSseServer.Step(chunk("{\"content\":\"Hello\"}"), 20),
                new ScriptedSseServer.Step(chunk("{\"content\":\" world\"}"), 0),
                new ScriptedSseServer.Step(
                        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":2}}\n\n", 0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0)));

        assertThat(record.succeeded()).isTrue();
        double ttftMs = (record.timings().firstTokenNanos() - record.timings().sentNanos()) / 1e6;
        assertThat(ttftMs).isGreaterThanOrEqualTo(150);
        assertThat(record.timings().firstByteNanos())
                .isLessThan(record.timings().firstTokenNanos());
        assertThat(record.timings().tokenEventNanos()).hasSize(2);
        assertThat(record.outputTokens()).isEqualTo(2);
        assertThat(record.inputTokens()).isEqualTo(16);
    }

    @Test
    void reasoningSetsTtftAndContentSetsTtfc() throws Exception {
        RequestRecord record = runOne(List.of(
                new ScriptedSseServer.Step(chunk("{\"role\":\"assistant\"}"), 30),
                new ScriptedSseServer.Step(chunk("{\"reasoning_content\":\"Let me think\"}"), 300),
                new ScriptedSseServer.Step(chunk("{\"content\":\"Yes\"}"), 0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0)));

        assertThat(record.succeeded()).isTrue();
        double gapMs = (record.timings().firstContentNanos() - record.timings().firstTokenNanos()) / 1e6;
        assertThat(gapMs).isGreaterThan(200);
        // No usage from the server: the output is counted locally and labelled so.
        assertThat(record.outputTokenSource().key()).isEqualTo("local_tokenizer");
        assertThat(record.outputTokens()).isEqualTo(4);
    }

    @Test
    void anErrorObjectInsideTheStreamFailsTheRequestAndKeepsItsTimings() throws Exception {
        RequestRecord record = runOne(List.of(
                new ScriptedSseServer.Step(chunk("{\"content\":\"Hi\"}"), 10),
                new ScriptedSseServer.Step(
                        "data: {\"error\":{\"message\":\"engine died\",\"type\":\"InternalServerError\",\"code\":500}}\n\n",
                        0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0)));

        assertThat(record.succeeded()).isFalse();
        assertThat(record.outcome().key()).isEqualTo("stream_error");
        assertThat(record.timings().tokenEventNanos()).hasSize(1);
        assertThat(((dev.llmload.record.Outcome.Failure) record.outcome()).message())
                .contains("engine died");
    }

    @Test
    void brokenJsonInTheStreamIsAProtocolFailure() throws Exception {
        RequestRecord record = runOne(List.of(
                new ScriptedSseServer.Step(chunk("{\"content\":\"Hi\"}"), 10),
                new ScriptedSseServer.Step("data: {\"choices\":[{\"delta\":{\"content\":\"oops\"\n\n", 0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0)));

        assertThat(record.outcome().key()).isEqualTo("protocol");
        assertThat(record.timings().firstTokenNanos()).isPositive();
    }
}
