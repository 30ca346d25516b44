package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The warm-up's requests of every dialect, with prompts beyond ASCII and JSON escapes, are answered whole and with 200 by its throwaway server. */
@Tag("loopback")
class LoopbackWarmUpTest {

    @Test
    void everyWarmUpRequestIsAnsweredWhole() {
        assertThat(SimServer.warmUpOverLoopback()).isEqualTo(3 * 8 * 40);
    }
}
