package dev.llmload.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(30)
@Tag("process")
public class SchedulingClassTest {

    /** Linux's numbers for the policies, as /proc/TID/stat's 41st field gives a thread's. */
    public static final int SCHED_OTHER = 0;

    public static final int SCHED_BATCH = 3;
    public static final int SCHED_IDLE = 5;

    @Test
    void theThreadIdIsTheLastPartOfProcThreadSelf() {
        assertThat(SchedulingClass.threadId("4211/task/4230")).isEqualTo(OptionalLong.of(4230));
        assertThat(SchedulingClass.threadId("4211/task/")).isEmpty();
        assertThat(SchedulingClass.threadId("4211")).isEmpty();
        assertThat(SchedulingClass.threadId("4211/task/x")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"IDLE, 5", "BATCH, 3"})
    void aThreadMovedIsInItsClassAndTheOthersAreNot(SchedulingClass schedulingClass, int policy) throws Exception {
        assumeLinuxWithChrt();
        CountDownLatch checked = new CountDownLatch(1);
        CompletableFuture<Boolean> moved = new CompletableFuture<>();
        Thread background = Thread.ofPlatform().name("moved-" + schedulingClass).start(() -> {
            moved.complete(schedulingClass.enterCurrentThread());
            try {
                checked.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(moved.get()).isTrue();
            assertThat(policiesByName().get("moved-" + schedulingClass)).containsExactly(policy);
            assertThat(policyOf(SchedulingClass.currentThreadId().orElseThrow()))
                    .isEqualTo(SCHED_OTHER);
        } finally {
            checked.countDown();
            background.join();
        }
    }

    /** What the telemetry does at the end of a run: another thread moves one out of the idle class. */
    @Test
    void aThreadInTheIdleClassIsMovedBackToTheNormalOneByAnother() throws Exception {
        assumeLinuxWithChrt();
        CountDownLatch checked = new CountDownLatch(1);
        CompletableFuture<Long> idle = new CompletableFuture<>();
        Thread background = Thread.ofPlatform().name("moved-back").start(() -> {
            if (SchedulingClass.IDLE.enterCurrentThread()) {
                idle.complete(SchedulingClass.currentThreadId().orElseThrow());
            } else {
                idle.completeExceptionally(new AssertionError("the thread was not moved into the idle class"));
            }
            try {
                checked.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            long tid = idle.get();
            assertThat(policyOf(tid)).isEqualTo(SCHED_IDLE);
            assumeTrue(
                    SchedulingClass.NORMAL.enter(tid),
                    "leaving the idle class takes a privilege this user"
                            + " lacks (root, CAP_SYS_NICE or an RLIMIT_NICE above 0)");
            assertThat(policyOf(tid)).isEqualTo(SCHED_OTHER);
        } finally {
            checked.countDown();
            background.join();
        }
    }

    @Test
    void anEventLoopStartedByAMovedThreadIsBornInTheIdleClass() throws Exception {
        assumeLinuxWithChrt();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        CompletableFuture<Long> loopThread = new CompletableFuture<>();
        try {
            Thread starter = Thread.ofPlatform().name("idle-starter").start(() -> {
                if (!SchedulingClass.IDLE.enterCurrentThread()) {
                    loopThread.completeExceptionally(new AssertionError("the starter was not moved"));
                    return;
                }
                // Netty starts a loop's thread for its first task, from the thread that hands it in.
                group.next()
                        .submit(() -> SchedulingClass.currentThreadId().orElseThrow())
                        .addListener(f -> loopThread.complete((Long) f.getNow()));
            });
            starter.join();
            assertThat(policyOf(loopThread.get())).isEqualTo(SCHED_IDLE);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    public static void assumeLinuxWithChrt() {
        assumeTrue(Files.isSymbolicLink(Path.of("/proc/thread-self")), "no /proc/thread-self: not Linux");
        boolean chrt = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "chrt")));
        assumeTrue(chrt, "no chrt on PATH (util-linux): the scheduling class cannot be changed here");
    }

    /** The scheduling policies of this process's live threads, by kernel name (15 characters at most). */
    public static Map<String, List<Integer>> policiesByName() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.map(SchedulingClassTest::thread)
                    .flatMap(Optional::stream)
                    .collect(Collectors.groupingBy(
                            LiveThread::name, Collectors.mapping(LiveThread::policy, Collectors.toList())));
        }
    }

    /**
     * The policies of this process's live threads called {@code name}, by kernel thread id. A test
     * takes these before it starts its own threads and looks only at the ids that are new: a thread
     * of the same name left by another test class in the same JVM is not the one under test.
     */
    public static Map<Long, Integer> policiesById(String name) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.map(SchedulingClassTest::thread)
                    .flatMap(Optional::stream)
                    .filter(thread -> thread.name().equals(name))
                    .collect(Collectors.toMap(LiveThread::tid, LiveThread::policy));
        }
    }

    /**
     * The policies of the threads called {@code name} that are not among {@code others} (taken
     * before the test started its own), looked at until there are at least {@code atLeast}, all
     * {@code expected}, or 5 s have passed; what was seen last. A thread that one of those threads
     * starts has its name until it first runs, on a busy host for a while, in the class it was born
     * in: the JVM's process reaper was seen so, when a thread's {@code chrt} was the JVM's first
     * child process.
     */
    public static List<Integer> settledPolicies(String name, Set<Long> others, int expected, int atLeast)
            throws IOException, InterruptedException {
        List<Integer> seen = List.of();
        for (int tries = 0; tries < 500; tries++) {
            Map<Long, Integer> policies = new HashMap<>(policiesById(name));
            policies.keySet().removeAll(others);
            seen = List.copyOf(policies.values());
            if (seen.size() >= atLeast && seen.stream().allMatch(policy -> policy == expected)) {
                break;
            }
            Thread.sleep(10);
        }
        return seen;
    }

    private record LiveThread(long tid, String name, int policy) {}

    /** A thread's name and policy; empty when it ended between the listing and the reading. */
    private static Optional<LiveThread> thread(Path task) {
        try {
            long tid = Long.parseLong(task.getFileName().toString());
            return Optional.of(new LiveThread(tid, read(task.resolve("comm")).strip(), policyOf(tid)));
        } catch (UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The policy of thread {@code tid} of this process: field 41 of its stat, counted after the name. */
    static int policyOf(long tid) {
        String stat = read(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[41 - 3]);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
