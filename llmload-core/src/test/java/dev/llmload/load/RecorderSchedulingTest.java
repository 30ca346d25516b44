package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.client.SchedulingClassTest;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.HashMap;
import java.util.Map;
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
            // The recorder moves itself first thing on its own thread: look until it has. A thread
            // it starts is born with its name and keeps it until it first runs, on a busy host for
            // a while: the JVM's process reaper, when the recorder's chrt is the JVM's first child
            // process, was seen so, in the class the recorder had when it started it.
            Map<Long, Integer> ours = Map.of();
            for (int tries = 0; tries < 500 && !allInTheBatchClass(ours); tries++) {
                ours = new HashMap<>(SchedulingClassTest.policiesById(RECORDER));
                ours.keySet().removeAll(others);
                Thread.sleep(10);
            }
            assertThat(ours.values()).isNotEmpty().containsOnly(SchedulingClassTest.SCHED_BATCH);
        } finally {
            recorder.finish();
        }
    }

    private static boolean allInTheBatchClass(Map<Long, Integer> policies) {
        return !policies.isEmpty() && policies.values().stream().allMatch(p -> p == SchedulingClassTest.SCHED_BATCH);
    }
}
