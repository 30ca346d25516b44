package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.client.SchedulingClassTest;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
@Tag("process")
class RecorderSchedulingTest {

    @Test
    void theRecorderWaitsForTheEventLoopsInTheBatchClass() throws Exception {
        SchedulingClassTest.assumeLinuxWithChrt();
        Recorder recorder = new Recorder(null, Tokenizers.defaultTokenizer(), 0, r -> {}, () -> {});
        try {
            // The recorder moves itself first thing on its own thread: look until it has.
            List<Integer> policies = List.of();
            for (int tries = 0; tries < 200 && !policies.contains(SchedulingClassTest.SCHED_BATCH); tries++) {
                policies = SchedulingClassTest.policiesByName().getOrDefault("llmload-recorde", List.of());
                Thread.sleep(10);
            }
            // Every recorder thread alive in this JVM (another class's run may have left one).
            assertThat(policies).isNotEmpty().containsOnly(SchedulingClassTest.SCHED_BATCH);
        } finally {
            recorder.finish();
        }
    }
}
