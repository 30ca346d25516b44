package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.Load;
import dev.llmload.workload.Fixtures;
import org.junit.jupiter.api.Test;

/** Which reader a {@code --trace} file goes to: the session replay or the Mooncake reader. */
class TraceFormatRoutingTest {

    private static boolean sessions(String fixture, String format) {
        return Workloads.isSessionTrace(new Load.Trace(Fixtures.path(fixture), 1.0, null, format));
    }

    @Test
    void aiperfMooncakeIsSessionsOnlyWhenARecordNamesASession() {
        assertThat(sessions("aiperf-mooncake-sessions.jsonl", "aiperf-mooncake"))
                .isTrue();
        // No session_id anywhere: independent requests, read as Mooncake's with their hash_ids.
        assertThat(sessions("trace.jsonl", "aiperf-mooncake")).isFalse();
        assertThat(sessions("aiperf-multi-turn.jsonl", "aiperf-multi-turn")).isTrue();
        assertThat(sessions("agent-sessions.jsonl", "llmload-sessions")).isTrue();
        assertThat(sessions("agent-sessions.jsonl", null)).isTrue();
        assertThat(sessions("aiperf-mooncake-sessions.jsonl", "mooncake")).isFalse();
        // AIPerf's formats are never guessed: without --trace-format neither is a session trace.
        assertThat(sessions("aiperf-mooncake-sessions.jsonl", null)).isFalse();
    }
}
