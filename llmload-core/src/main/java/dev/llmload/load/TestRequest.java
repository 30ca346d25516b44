package dev.llmload.load;

import dev.llmload.http.HttpExchangeRequest;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.OpenAiCodec;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One small request sent before the run's clock starts, as {@code vllm bench serve} does with its
 * initial test prompt. It goes through exactly the code the measured requests use, so the first
 * of those do not pay for loading and compiling it (that alone cost well over 100 ms), and it
 * tells early when the server refuses the request shape (a wrong model name, a missing key). It is
 * not journaled and counts in no statistic.
 */
public final class TestRequest {

    private static final RequestSpec SPEC = new RequestSpec(-1, List.of(ChatMessage.user("Say hello.")), 3, 2);

    private TestRequest() {}

    /** Sends it and waits for it to finish (at most {@code timeout}; null if it had not by then). */
    public static FinishedRequest send(LoadHttpClient client, OpenAiCodec codec, Timeouts timeouts, String requestId,
                               Duration timeout) throws InterruptedException {
        CompletableFuture<FinishedRequest> finished = new CompletableFuture<>();
        long now = System.nanoTime();
        PreparedRequest request = new PreparedRequest(SPEC, codec.encode(SPEC));
        RequestExecution execution = new RequestExecution(request, requestId, true, now, now, codec, timeouts,
                (done, result) -> finished.complete(result));
        execution.started(client.send(new HttpExchangeRequest("POST", codec.path(), Map.of("x-request-id", requestId),
                request.body()), execution));
        try {
            return finished.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            execution.cancel("the test request took longer than " + timeout.toSeconds() + " s");
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
