package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.client.SchedulingClassTest;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
@Tag("process")
class RecorderSchedulingTest {

    /** The recorder thread's name as the kernel keeps it (15 characters). */
    private static final String RECORDER = "llmload-recorde";

    @Test
    void theRecorderWaitsForTheEventLoopsInTheBatchClass() throws Exception {
        SchedulingClassTest.assumeLinuxWithChrt();
        // A recorder another class's run left in this JVM has the same name: look at the new one only.
        Set<Long> others = SchedulingClassTest.policiesById(RECORDER).keySet();
        Recorder recorder = new Recorder(null, Tokenizers.defaultTokenizer(), 0, r -> {}, () -> {});
        try {
            // The recorder moves itself first thing on its own thread: look until it has.
            List<Integer> ours =
                    SchedulingClassTest.settledPolicies(RECORDER, others, SchedulingClassTest.SCHED_BATCH, 1);
            assertThat(ours).isNotEmpty().containsOnly(SchedulingClassTest.SCHED_BATCH);
        } finally {
            recorder.finish();
        }
    }
}
