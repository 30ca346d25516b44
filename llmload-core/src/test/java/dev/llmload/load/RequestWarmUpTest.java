package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The per-request warm-up sends every one of its requests through the real client to its own
 * loopback responder, and every one ends as a success in every dialect (the warm-up counts a
 * request the path misread as no success, and goes on), leaving none of its threads behind.
 */
@Tag("loopback")
class RequestWarmUpTest {

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = "AUTO", mode = EnumSource.Mode.EXCLUDE)
    void everyRequestOfTheWarmUpSucceedsInEveryDialect(ApiKind api) throws InterruptedException {
        Dialect dialect = Dialect.of(new RequestOptions(api, "m", true, true, null));

        int succeeded = RequestWarmUp.run(dialect, Duration.ofSeconds(30));

        assertThat(succeeded).isEqualTo(RequestWarmUp.REQUESTS);
        // The event loop's thread ends a moment after its group says it has terminated.
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!warmUpThreads().isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(warmUpThreads()).isEmpty();
    }

    private static List<String> warmUpThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("llmload-warm")).map(Thread::getName).toList();
    }
}
