package dev.llmload.load;

import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.Dialect;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import java.time.Duration;
import java.util.List;
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
final class TestRequest {

    /** Small, so that the server spends little on it; {@link RequestWarmUp} sends it too. */
    static final RequestSpec SPEC = new RequestSpec(-1, List.of(ChatMessage.user("Say hello.")), 3, 2);

    private TestRequest() {}

    /** Sends it and waits for it to finish (at most {@code timeout}; null if it had not by then). */
    public static FinishedRequest send(
            LoadHttpClient client, Dialect dialect, Timeouts timeouts, String requestId, Duration timeout)
            throws InterruptedException {
        CompletableFuture<FinishedRequest> finished = new CompletableFuture<>();
        Launcher launcher = new Launcher(client, dialect, timeouts, finished::complete, "", 0, 0, null);
        long now = System.nanoTime();
        launcher.send(launcher.prepare(SPEC), requestId, true, now, now, result -> {});
        try {
            return finished.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            launcher.cancelInFlight("the test request took longer than " + timeout.toSeconds() + " s");
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
