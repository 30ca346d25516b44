package dev.llmload.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.testsupport.HostLoad;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("timing")
class StartGateTest {

    private static final long MS = 1_000_000L;

    @Test
    void convertsAWallClockInstantToTheMonotonicClock() {
        Instant now = Instant.parse("2026-12-01T09:59:58.500Z");
        assertThat(StartGate.startNanos(Instant.parse("2026-12-01T10:00:00Z"), now, 1_000))
                .isEqualTo(1_500_001_000L);
        assertThat(StartGate.startNanos(now, now, -7)).isEqualTo(-7);
        // a target that has passed lies in the monotonic past
        assertThat(StartGate.startNanos(Instant.parse("2026-12-01T09:59:58Z"), now, 1_000))
                .isEqualTo(1_000 - 500 * MS);
        assertThatThrownBy(() -> StartGate.startNanos(Instant.parse("2400-01-01T00:00:00Z"), now, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is too far from now");
    }

    @Test
    void startsAtTheInstantAndSaysWhenItDidByThisHostsClock() throws Exception {
        // 1.3 s ahead: the gate parks, converts the instant again once, parks, then spins.
        Instant target = Instant.now().plusMillis(1_300);
        StartGate.Start start = StartGate.await(target);
        long returnedNanos = System.nanoTime();
        Instant returnedAt = Instant.now();

        assertThat(start.target()).isEqualTo(target);
        assertThat(returnedNanos - start.originNanos()).isGreaterThanOrEqualTo(0);
        assertThat(start.wakeLateNanos()).isBetween(0L, returnedNanos - start.originNanos());
        // The wall clock, read here after the gate, has reached the target (its resolution is a microsecond).
        assertThat(returnedAt).isAfterOrEqualTo(target.minusNanos(1_000));
        // The origin's wall-clock instant is the target but for the conversion's error; the bound is loose
        // because this machine's cores are shared, and looser when its run queue is longer than its cores.
        assertThat(Math.abs(start.errorNanos())).as(HostLoad.describe()).isLessThan((long) (HostLoad.slackMs(50) * MS));
        assertThat(start.originWallClock()).isBeforeOrEqualTo(returnedAt.plusNanos(1_000));
    }

    @Test
    void aTargetThatHasPassedStartsAtOnceAndTheErrorIsTheLateness() throws Exception {
        Instant target = Instant.now().minusSeconds(2);
        long calledNanos = System.nanoTime();
        StartGate.Start start = StartGate.await(target);
        long returnedNanos = System.nanoTime();

        assertThat(start.originNanos()).isBetween(calledNanos, returnedNanos);
        assertThat(start.errorNanos()).isBetween(2_000 * MS, 2_000 * MS + (returnedNanos - calledNanos) + 50 * MS);
    }

    @Test
    void anInterruptedWaitEndsAtOnce() throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                StartGate.await(Instant.now().plusSeconds(60));
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        Thread.sleep(100);
        long interruptedNanos = System.nanoTime();
        thread.interrupt();
        Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
        assertThat(thrown).isInstanceOf(InterruptedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - interruptedNanos)).isLessThan(Duration.ofSeconds(5));
    }
}
