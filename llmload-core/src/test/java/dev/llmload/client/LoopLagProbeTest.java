package dev.llmload.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The probe on a real Netty event loop sees a blocking task of known length. */
class LoopLagProbeTest {

    private static final int STALL_MS = 200;

    @Test
    void aLoopBlockedForAKnownTimeIsLateByThatMuch() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try {
            List<EventLoop> loops = List.of(group.next(), group.next());
            ClientMonitor monitor = ClientMonitor.start(loops);
            loops.get(0)
                    .schedule(() -> sleep(STALL_MS), 100, TimeUnit.MILLISECONDS)
                    .sync();
            Thread.sleep(200);
            ClientRecording recording = monitor.stop();

            assertThat(recording.eventLoops()).isEqualTo(2);
            assertThat(recording.eventLoopsRead()).isEqualTo(2);
            int[] lags = recording.lagMicros();
            // The instant due just after the stall began waited nearly all of it; the probe fills in
            // every instant the stall covered, so a stall weighs by its length.
            assertThat(Arrays.stream(lags).max().orElseThrow()).isGreaterThanOrEqualTo((STALL_MS - 10) * 1000);
            assertThat(Arrays.stream(lags).filter(l -> l >= STALL_MS / 2 * 1000).count())
                    .isGreaterThanOrEqualTo(9);
            assertThat(recording.lagDueMs()).hasSameSizeAs(lags);
            assertThat(recording.cpuAtNanos()).hasSizeGreaterThanOrEqualTo(2);
            long[] cpu = recording.cpuNanos();
            for (int i = 1; i < cpu.length; i++) {
                assertThat(cpu[i]).isGreaterThanOrEqualTo(cpu[i - 1]);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void aLoopThatHasShutDownIsCountedButNotRead() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ClientMonitor monitor = ClientMonitor.start(List.of(group.next()));
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        ClientRecording recording = monitor.stop();
        assertThat(recording.eventLoops()).isEqualTo(1);
        assertThat(recording.eventLoopsRead()).isZero();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
