package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.sim.server.SimServer;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data fails part-way through a run (a dataset line that cannot be made into a request, a file
 * changed since it was checked): the load stops, and what finished before is journaled whole
 * before the phase gives the failure to its caller, which closes the journal next. The recorder's
 * thread ends with the phase, as after a run that went well.
 */
@Tag("loopback")
@Timeout(60)
class DataFailureMidRunTest {

    /** Beyond what the feed prepares before the load starts, so the failure comes during it. */
    private static final int GOOD_REQUESTS = PreparedFeed.AHEAD + 20;

    @Test
    void whatFinishedBeforeTheDataFailedIsJournaledAndTheRecorderEnds(@TempDir Path dir) throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "llmload-sim", true, true, null));
        Path journalFile = dir.resolve("requests.jsonl");
        AtomicInteger heard = new AtomicInteger();
        Set<String> recordersBefore = recorderThreads();
        try (SimServer sim = FixedSimulator.start(2.0, 1.0, Map.of());
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(sim.url()), null, 2, Duration.ofSeconds(5), false);
                LoadPhase phase = LoadPhase.open(
                        HelloSource.failingAt(GOOD_REQUESTS),
                        null,
                        client,
                        dialect,
                        Timeouts.defaults(),
                        new LoadPlan.ClosedLoop(new ConcurrencyPlan.Fixed(4)),
                        2 * GOOD_REQUESTS,
                        -1)) {
            assertThat(phase.getReady(4, "test", Tokenizers.defaultTokenizer(), Duration.ofSeconds(10)))
                    .isEmpty();
            try (Journal journal = Journal.create(journalFile)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> phase.send(
                                journal,
                                Tokenizers.defaultTokenizer(),
                                start,
                                null,
                                0,
                                null,
                                Duration.ofSeconds(5),
                                "mid-",
                                null,
                                record -> heard.incrementAndGet()))
                        .isInstanceOf(DatasetException.class)
                        .hasMessageContaining("prompts.jsonl:" + (GOOD_REQUESTS + 1));
                // Every request the feed made was sent before the failure reached the loop, and
                // the grace let each finish: each one's line is written by the time send returns.
                List<RequestRecord> journaled = JournalReader.read(journalFile);
                assertThat(journaled).hasSize(heard.get());
                assertThat(heard.get()).isPositive().isLessThanOrEqualTo(GOOD_REQUESTS);
            }
        }
        assertThat(recorderThreads())
                .as("recorder threads alive after the phase, beyond those alive before it")
                .isSubsetOf(recordersBefore);
    }

    /** The identities of the live recorder threads of this JVM. */
    private static Set<String> recorderThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals("llmload-recorder"))
                .map(thread -> Long.toString(thread.threadId()))
                .collect(Collectors.toSet());
    }
}
