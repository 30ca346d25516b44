package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code --live-metrics} given wrong, or on a port that is taken: one line, before any load. */
@Tag("loopback")
class LiveMetricsOptionErrorsTest {

    @Test
    void anAddressThatIsNoneIsAUsageError() {
        for (String wrong : new String[] {"localhost:http", "70000", "127.0.0.1:"}) {
            CapturedRun outcome = CapturedRun.of("run", "--url", "http://127.0.0.1:1", "--live-metrics", wrong);
            assertThat(outcome.exitCode()).as(wrong).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines().count()).as(outcome.err()).isEqualTo(1);
            assertThat(outcome.err()).contains("--live-metrics").doesNotContain("Exception");
        }
    }

    @Test
    void aPortInUseStopsTheRunBeforeItStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CapturedRun outcome = CapturedRun.of(
                    "run", "--url", "http://127.0.0.1:1", "--live-metrics", "127.0.0.1:" + taken.getLocalPort());
            assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_CANNOT_START);
            assertThat(outcome.err().strip().lines().count()).as(outcome.err()).isEqualTo(1);
            assertThat(outcome.err())
                    .contains("--live-metrics: cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .doesNotContain("Exception");
        }
    }
}
