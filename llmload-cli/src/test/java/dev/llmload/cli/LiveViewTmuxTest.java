package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.testsupport.RequiredTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live view as a person sees it: {@code llmload run} against the built-in simulator in a tmux
 * pane (a real terminal), its screen read with {@code tmux capture-pane}. While the run goes the
 * view is there instead of the progress line; at the end it is one block, redrawn in place, whose
 * counts and percentiles are the same run's report.json (a run shorter than the view's window:
 * its last window holds every request). With {@code --no-live} the progress line is back.
 * Skipped where tmux is not installed (under CI it must be: {@link RequiredTool}).
 */
@Tag("process")
@Tag("loopback")
class LiveViewTmuxTest {

    private static final Pattern FINISHED = Pattern.compile("finished (\\d+)");
    private static final Pattern IN_FLIGHT = Pattern.compile("in flight (\\d+)");
    private static final Pattern FAILED = Pattern.compile("failed (\\d+)");

    /** A tmux server of this test's own, so that nobody's sessions are touched. */
    private final String socket = "llmload-test-" + ProcessHandle.current().pid();

    @TempDir
    Path dir;

    @AfterEach
    void stopTmux() throws Exception {
        if (tmuxPresent()) {
            tmux("kill-server");
        }
    }

    @Test
    void theViewShowsTheRunAsItGoesAndEndsOnTheReportsFigures() throws Exception {
        RequiredTool.require(
                tmuxPresent(), "tmux not installed (apt-get install tmux); the terminal view's test is skipped");
        Path run = dir.resolve("run");
        start(
                "live",
                "run",
                "--duration",
                "4s",
                "--concurrency",
                "4",
                "--input-tokens",
                "64",
                "--output-tokens",
                "32",
                "--output-dir",
                run.toString());

        // While it runs: the view, not the progress line.
        String during = await(
                "live",
                screen -> screen.contains("llmload live") && !screen.contains(", done") && !screen.contains("EXIT "));
        List<String> view = block(during);
        assertThat(view.getFirst()).contains("(rates and percentiles over the last 10 s)");
        assertThat(view.get(1)).startsWith("requests  sent ");
        long inFlight = number(IN_FLIGHT, view.get(1));
        // A closed loop of 4 keeps 4 in flight but for the instants between a completion and its next send.
        assertThat(inFlight).isBetween(1L, 4L);
        assertThat(view.get(2)).startsWith("rate      offered - (closed loop)  sent ");
        assertThat(view.get(3)).startsWith("TTFT      ");
        assertThat(view.get(7)).startsWith("client    event-loop lag max ");
        assertThat(view.get(8)).startsWith("server    ");
        assertThat(during).doesNotContain("progress:");

        // At the end: one block, redrawn in place, on the report's figures.
        String after = await("live", screen -> screen.contains("EXIT "));
        assertThat(after).contains("EXIT 0");
        assertThat(after.lines().filter(line -> line.startsWith("llmload live")).count())
                .as("the view is redrawn in place, not printed again:%n%s", after)
                .isEqualTo(1);
        List<String> last = block(after);
        assertThat(last.getFirst()).contains(", done");
        JsonNode results =
                new ObjectMapper().readTree(run.resolve("report.json").toFile()).path("results");
        assertThat(number(FINISHED, last.get(1)))
                .isEqualTo(results.path("requests").path("attempted").asLong());
        assertThat(number(FAILED, last.get(1)))
                .isEqualTo(results.path("requests").path("failed").asLong());
        assertThat(number(IN_FLIGHT, last.get(1))).isZero();
        assertThat(last.get(3))
                .startsWith("TTFT      p50 "
                        + LiveView.ms(results.path("ttft_ms").path("p50").asDouble()) + "  p99 "
                        + LiveView.ms(results.path("ttft_ms").path("p99").asDouble()) + "  ("
                        + results.path("ttft_ms").path("count").asLong() + ")");
        assertThat(last.get(4))
                .startsWith("ITL       p50 "
                        + LiveView.ms(results.path("itl_ms").path("p50").asDouble()));
        assertThat(last.get(5))
                .startsWith("E2E       p50 "
                        + LiveView.ms(results.path("e2e_latency_ms").path("p50").asDouble()));
        // The simulator's metrics are scraped: its KV cache and queue are in the view.
        assertThat(last.get(8)).contains("KV cache ").contains("waiting ");
    }

    @Test
    void noLiveKeepsTheProgressLine() throws Exception {
        RequiredTool.require(
                tmuxPresent(), "tmux not installed (apt-get install tmux); the terminal view's test is skipped");
        start(
                "plain",
                "run",
                "--no-live",
                "--num-requests",
                "8",
                "--concurrency",
                "2",
                "--input-tokens",
                "16",
                "--output-tokens",
                "8",
                "--output-dir",
                dir.resolve("plain").toString());
        String after = await("plain", screen -> screen.contains("EXIT "));
        assertThat(after).contains("EXIT 0").contains("progress: 8/8 done").doesNotContain("llmload live");
    }

    /** Starts llmload in a detached session of its own, 160 columns by 50 rows; the pane stays after it exits. */
    private void start(String session, String... args) throws Exception {
        StringBuilder command = new StringBuilder("exec 2>&1; ")
                .append(quoted(ProcessHandle.current().info().command().orElse("java")))
                .append(" -cp ")
                .append(quoted(System.getProperty("java.class.path")))
                .append(' ')
                .append(Main.class.getName());
        for (String arg : args) {
            command.append(' ').append(quoted(arg));
        }
        command.append("; echo \"EXIT $?\"; sleep 600");
        Path script = dir.resolve(session + ".sh");
        Files.writeString(script, command.toString());
        tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "50", "bash " + quoted(script.toString()));
    }

    /** The pane's text with its history, once {@code ready} holds of it; fails after 120 s. */
    private String await(String session, Predicate<String> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", session);
            if (ready.test(screen)) {
                return screen;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the pane never showed what was awaited in 120 s:\n" + screen);
    }

    /** The view's nine lines, from its header on. */
    private static List<String> block(String screen) {
        List<String> lines = screen.lines().toList();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("llmload live")) {
                assertThat(lines.size())
                        .as("a whole view below the header:%n%s", screen)
                        .isGreaterThanOrEqualTo(i + 9);
                return new ArrayList<>(lines.subList(i, i + 9));
            }
        }
        throw new AssertionError("no view on the screen:\n" + screen);
    }

    private static long number(Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        assertThat(m.find()).as("'%s' in '%s'", pattern, line).isTrue();
        return Long.parseLong(m.group(1));
    }

    private String tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("tmux " + String.join(" ", args) + " did not answer in 30 s");
        }
        if (p.exitValue() != 0 && !args[0].equals("kill-server")) {
            throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    private static boolean tmuxPresent() {
        try {
            Process p =
                    new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
