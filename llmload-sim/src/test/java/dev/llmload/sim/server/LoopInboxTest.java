package dev.llmload.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine-to-event-loop inbox on a real Netty event loop. */
class LoopInboxTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    private final LoopInbox inbox = new LoopInbox(loop);

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void everyPostedTaskRunsOnTheLoopInPostingOrder() throws InterruptedException {
        int tasks = 10_000;
        List<Integer> ran = new ArrayList<>(); // touched on the loop only
        List<Boolean> onLoop = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            int index = i;
            inbox.post(() -> {
                ran.add(index);
                onLoop.add(loop.inEventLoop());
                done.countDown();
            });
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran)
                .containsExactlyElementsOf(IntStream.range(0, tasks).boxed().toList());
        assertThat(onLoop).containsOnly(true);
    }

    /**
     * Callbacks as slow as token writes on a busy core (100 µs each): the loop's other work (a
     * new request's read) waits for one slice's time, a few of them, not for a count of them. On a
     * busy host each takes longer by the clock, so fewer fit: the bound only tightens.
     */
    @Test
    void aSliceEndsWhenItsTimeIsSpentHoweverManyCallbacksWait() throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        loop.execute(() -> await(gate));
        int backlog = 200;
        long callbackNanos = 100_000;
        int[] inboxTasksRun = new int[1];
        CountDownLatch done = new CountDownLatch(backlog);
        for (int i = 0; i < backlog; i++) {
            inbox.post(() -> {
                long until = System.nanoTime() + callbackNanos;
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
                inboxTasksRun[0]++;
                done.countDown();
            });
        }
        int[] seenByOtherWork = {-1};
        loop.execute(() -> seenByOtherWork[0] = inboxTasksRun[0]);
        gate.countDown();
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        loop.submit(() -> {}).syncUninterruptibly();
        assertThat(seenByOtherWork[0])
                .as("100 µs callbacks run before the loop's other work got its turn")
                .isBetween(1, (int) (LoopInbox.SLICE_NANOS / callbackNanos));
    }

    @Test
    void aTaskThatThrowsDoesNotStrandTheOnesBehindIt() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(3);
        inbox.post(done::countDown);
        inbox.post(() -> {
            throw new IllegalStateException("a bug in one stream's callback (expected in this test)");
        });
        inbox.post(done::countDown);
        inbox.post(done::countDown);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
