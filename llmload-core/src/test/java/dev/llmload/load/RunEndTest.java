package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one stop protocol of every sender, on real threads: the grace period's end, the wake-up, the single cancel. */
class RunEndTest {

    private static final Duration GRACE = Duration.ofSeconds(3);

    @Test
    void theGracePeriodRunsFromTheDeadlineUntilAStopMovesItToTheStop() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        RunEnd end = new RunEnd(deadline);
        assertThat(end.graceEndNanos(GRACE)).isEqualTo(deadline + GRACE.toNanos());
        assertThat(new RunEnd(Long.MAX_VALUE).graceEndNanos(GRACE)).isEqualTo(Long.MAX_VALUE);

        long before = System.nanoTime();
        end.stop();
        long after = System.nanoTime();
        long graceEnd = end.graceEndNanos(GRACE);
        assertThat(end.stopping()).isTrue();
        assertThat(end.sending().getAsBoolean()).isFalse();
        assertThat(graceEnd).isBetween(before + GRACE.toNanos(), after + GRACE.toNanos());
        end.stop();
        assertThat(end.graceEndNanos(GRACE))
                .as("a second stop keeps the first's time")
                .isEqualTo(graceEnd);
    }

    @Test
    void whatIsLeftIsCancelledOnce() {
        RunEnd end = new RunEnd(Long.MAX_VALUE);
        AtomicInteger cancels = new AtomicInteger();
        assertThat(end.cancelled()).isFalse();
        assertThat(end.cancelOnce(cancels::incrementAndGet)).isTrue();
        assertThat(end.cancelOnce(cancels::incrementAndGet)).isFalse();
        assertThat(end.cancelled()).isTrue();
        assertThat(cancels).hasValue(1);
    }

    @Test
    void aStopFromAnotherThreadWakesTheDispatcherThreadFromItsWait() throws InterruptedException {
        RunEnd end = new RunEnd(Long.MAX_VALUE);
        CountDownLatch entered = new CountDownLatch(1);
        Thread dispatcher = Thread.ofPlatform().start(() -> {
            end.enter();
            entered.countDown();
            Launcher.waitUntil(Long.MAX_VALUE, end.sending());
        });
        entered.await();
        end.stop();
        dispatcher.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(dispatcher.isAlive()).as("still waiting after the stop").isFalse();
    }

    @Test
    void drainReturnsWhenAllFinishedWithoutCancellingAnything() throws InterruptedException {
        RunEnd end = new RunEnd(Long.MAX_VALUE);
        CountDownLatch allFinished = new CountDownLatch(1);
        AtomicInteger cancels = new AtomicInteger();
        Thread.ofPlatform().start(() -> {
            pause(50);
            allFinished.countDown();
        });
        end.drain(allFinished, GRACE, cancels::incrementAndGet);
        assertThat(cancels).hasValue(0);
        assertThat(end.cancelled()).isFalse();
    }

    @Test
    void aStopDuringTheDrainEndsItsGraceAndCancelsWhatIsLeftOnce() throws InterruptedException {
        RunEnd end = new RunEnd(Long.MAX_VALUE);
        CountDownLatch allFinished = new CountDownLatch(1);
        AtomicInteger cancels = new AtomicInteger();
        // Without a deadline the drain would wait for ever; a stop with no grace ends it at its next look.
        Thread.ofPlatform().start(() -> {
            pause(50);
            end.stop();
        });
        end.drain(allFinished, Duration.ZERO, () -> {
            cancels.incrementAndGet();
            allFinished.countDown();
        });
        assertThat(cancels).hasValue(1);
        assertThat(end.cancelled()).isTrue();
    }

    /** Waits {@code ms} on the calling thread, as the dispatcher thread paces itself. */
    private static void pause(long ms) {
        Launcher.waitUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms), () -> true);
    }
}
