package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestTimings;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Sending on the event loop's timer, and cancelling what was handed over, over real loopback. */
@Tag("loopback")
@Tag("timing")
class LauncherTest {

    private static final List<ScriptedSseServer.Step> ANSWER = List.of(
            new ScriptedSseServer.Step("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n", 0),
            new ScriptedSseServer.Step("data: [DONE]\n\n", 0));
    private static final RequestSpec SPEC = new RequestSpec(0, List.of(ChatMessage.user("Say hello.")), 3, 1);

    private final Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "scripted", true, false, null));

    @Test
    void aRequestIsTakenUpByItsLoopAtItsTimeAndNotBefore() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(ANSWER);
                LoadHttpClient client = client(server)) {
            CompletableFuture<FinishedRequest> recorded = new CompletableFuture<>();
            Launcher launcher =
                    new Launcher(client, dialect, Timeouts.defaults(), recorded::complete, "t-", 0, 0, null);
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            launcher.send(launcher.prepare(SPEC), "t-0", false, start, start, finished -> {});

            FinishedRequest finished = recorded.get(10, TimeUnit.SECONDS);
            assertThat(finished.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(finished.timings().intendedSendNanos()).isEqualTo(start);
            assertThat(finished.timings().sentNanos()).isGreaterThanOrEqualTo(start);
            assertThat(server.requestsReceived()).isEqualTo(1);
        }
    }

    @Test
    void aRequestCancelledBeforeItsLoopTookItUpEndsCancelledAndIsNeverSent() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(ANSWER);
                LoadHttpClient client = client(server)) {
            CompletableFuture<FinishedRequest> recorded = new CompletableFuture<>();
            Launcher launcher =
                    new Launcher(client, dialect, Timeouts.defaults(), recorded::complete, "t-", 0, 0, null);
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            launcher.send(launcher.prepare(SPEC), "t-0", false, start, start, finished -> {});
            launcher.cancelInFlight("the run was stopped");

            FinishedRequest finished = recorded.get(10, TimeUnit.SECONDS);
            assertThat(finished.outcome()).isEqualTo(Outcome.Failure.of(FailureClass.CANCELLED, "the run was stopped"));
            assertThat(finished.timings().firstByteNanos()).isEqualTo(RequestTimings.NEVER);
            // Past its time, the timer that would have sent it finds it over.
            long waitNanos = start + TimeUnit.MILLISECONDS.toNanos(300) - System.nanoTime();
            if (waitNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            }
            assertThat(server.requestsReceived()).isZero();
        }
    }

    private static LoadHttpClient client(ScriptedSseServer server) {
        return new LoadHttpClient(Endpoint.openAiBase(server.url()), null, 1, Duration.ofSeconds(5), false);
    }
}
