package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The per-request warm-up sends every one of its requests through the real client, dispatcher and
 * recorder to its own loopback responder, and every one ends as a success in every dialect (the
 * warm-up counts a request the path misread as no success, and goes on), leaving none of its
 * threads and not its journal behind.
 */
@Tag("loopback")
class RequestWarmUpTest {

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = "AUTO", mode = EnumSource.Mode.EXCLUDE)
    void everyRequestOfTheWarmUpSucceedsInEveryDialect(ApiKind api) throws InterruptedException, IOException {
        Dialect dialect = Dialect.of(new RequestOptions(api, "m", true, true, null));

        List<Path> journalsBefore = warmUpJournals();

        int succeeded = RequestWarmUp.run(dialect, Tokenizers.defaultTokenizer(), Duration.ofSeconds(30));

        assertThat(succeeded).isEqualTo(RequestWarmUp.REQUESTS);
        assertThat(warmUpJournals()).as("the warm-up's journal, deleted").isSubsetOf(journalsBefore);
        // The event loop's thread ends a moment after its group says it has terminated.
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!warmUpThreads().isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(warmUpThreads()).isEmpty();
    }

    private static List<String> warmUpThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && THREADS.stream().anyMatch(t.getName()::startsWith))
                .map(Thread::getName)
                .toList();
    }

    /** The warm-up's own and those of the feed and the recorder it runs as a run does. */
    private static final List<String> THREADS =
            List.of("llmload-warm", "llmload-prepare", "llmload-recorder", "llmload-count");

    private static List<Path> warmUpJournals() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("llmload-warm-up-"))
                    .toList();
        }
    }
}
