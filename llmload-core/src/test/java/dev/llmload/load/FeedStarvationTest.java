package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.http.Endpoint;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.Dialect;
import dev.llmload.protocol.RequestOptions;
import dev.llmload.record.Outcome;
import dev.llmload.schedule.ConcurrencyPlan;
import dev.llmload.sim.server.SimServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A closed loop whose request preparation cannot keep up: every request takes far longer to make
 * than the simulator takes to answer it, so each completion finds the feed empty. Whoever waits
 * for preparation then, it must never be an event-loop thread, which would stop reading (and
 * timestamping) every other stream on its loop. A probe samples the threads' states and stacks
 * together and catches any thread parked or blocked inside the feed.
 */
@Tag("loopback")
@Tag("timing")
class FeedStarvationTest {

    private static final int REQUESTS = 24;
    private static final int CONCURRENCY = 4;
    private static final long PREPARE_MS = 25;

    @Test
    void noEventLoopThreadEverWaitsForAStarvedFeed() throws Exception {
        Dialect dialect = Dialect.of(new RequestOptions(ApiKind.CHAT, "llmload-sim", true, true, null));
        List<FinishedRequest> finished = Collections.synchronizedList(new ArrayList<>());
        List<String> waits;
        try (SimServer sim = FixedSimulator.start(2.0, 1.0, Map.of());
                LoadHttpClient client =
                        new LoadHttpClient(Endpoint.openAiBase(sim.url()), null, 2, Duration.ofSeconds(5), false);
                PreparedFeed feed = new PreparedFeed(new HelloSource(PREPARE_MS * 1_000_000), dialect, REQUESTS)) {
            feed.start();
            Dispatcher dispatcher = new Dispatcher(
                    new SendContext(
                            client,
                            dialect,
                            Timeouts.defaults(),
                            new LoadPlan.ClosedLoop(new ConcurrencyPlan.Fixed(CONCURRENCY)),
                            REQUESTS,
                            null,
                            0,
                            null,
                            finished::add,
                            System.nanoTime(),
                            "starved-",
                            null),
                    feed);
            FeedWaitProbe probe = new FeedWaitProbe();
            probe.start();
            try {
                dispatcher.run(Duration.ofSeconds(10));
            } finally {
                waits = probe.finish();
            }
        }

        assertThat(finished).hasSize(REQUESTS).allMatch(f -> f.outcome() instanceof Outcome.Success);
        // The feed did starve, and the probe saw the dispatcher thread (this one) wait in it: the
        // probe sees what it looks for.
        String dispatcherThread = Thread.currentThread().getName();
        assertThat(waits)
                .as("threads seen waiting inside the feed")
                .anyMatch(wait -> wait.startsWith(dispatcherThread + " "));
        assertThat(waits)
                .as("event-loop threads seen waiting inside the feed")
                .noneMatch(wait -> wait.startsWith("llmload-io"));
    }

    /**
     * Samples every thread but the preparation thread (which works inside the feed by design):
     * one that is parked or blocked with a {@link PreparedFeed} frame on its stack is waiting for
     * preparation. State and stack come from one snapshot, so a thread that just stopped waiting
     * elsewhere is not mistaken for one waiting here.
     */
    private static final class FeedWaitProbe extends Thread {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final Set<String> waits = new LinkedHashSet<>();
        private volatile boolean running = true;

        FeedWaitProbe() {
            super("feed-wait-probe");
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 32)) {
                    StackTraceElement feedFrame = info == null ? null : feedFrame(info);
                    if (feedFrame != null && !info.getThreadName().equals("llmload-prepare") && waiting(info)) {
                        waits.add(info.getThreadName() + " " + info.getThreadState() + " in "
                                + feedFrame.getMethodName() + ":" + feedFrame.getLineNumber());
                    }
                }
                LockSupport.parkNanos(200_000);
            }
        }

        private static boolean waiting(ThreadInfo info) {
            return switch (info.getThreadState()) {
                case WAITING, TIMED_WAITING, BLOCKED -> true;
                default -> false;
            };
        }

        /** The innermost frame of the feed on the thread's stack, or null. */
        private static StackTraceElement feedFrame(ThreadInfo info) {
            for (StackTraceElement frame : info.getStackTrace()) {
                if (frame.getClassName().equals(PreparedFeed.class.getName())) {
                    return frame;
                }
            }
            return null;
        }

        List<String> finish() throws InterruptedException {
            running = false;
            join();
            return List.copyOf(waits);
        }
    }
}
