package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llmload report} and {@code merge} in a JVM whose heap cannot hold the journal: one line
 * saying what ran out and how to raise the heap, not a stack trace. The journal holds one line of
 * millions of token events, which no way of reading it line by line fits in a 16 MiB heap.
 */
@Tag("loopback")
@Tag("process")
class HeapExhaustedTest {

    private static final List<String> TINY_HEAP = List.of("-Xmx16m");

    @TempDir
    Path dir;

    @Test
    void reportAndMergeOfAJournalBeyondTheHeapSayHowToRaiseIt() throws Exception {
        Path run = dir.resolve("run");
        Path segment = dir.resolve("segment");
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 1)))) {
            for (String[] extra : List.of(
                    new String[] {"--output-dir", run.toString()},
                    new String[] {"--output-dir", segment.toString(), "--segment", "0/1"})) {
                List<String> args = new java.util.ArrayList<>(List.of(
                        "run",
                        "--url",
                        sim.url(),
                        "--concurrency",
                        "2",
                        "--num-requests",
                        "4",
                        "--input-tokens",
                        "16",
                        "--output-tokens",
                        "4"));
                args.addAll(List.of(extra));
                assertThat(Main.execute(args.toArray(String[]::new))).isZero();
            }
        }
        widenJournal(run);
        widenJournal(segment);

        String report = runCli("report", run.toString());
        assertThat(report)
                .contains("llmload: the Java heap (")
                .contains("ran out while rebuilding the reports of " + run)
                .contains("LLMLOAD_JAVA_OPTS=-Xmx")
                .doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(report.strip().lines()).hasSize(1);

        String merge = runCli("merge", dir.resolve("merged").toString(), segment.toString());
        assertThat(merge)
                .contains("ran out while merging 1 segments")
                .contains("LLMLOAD_JAVA_OPTS=-Xmx")
                .doesNotContain("\tat ");
        assertThat(merge.strip().lines()).hasSize(1);
    }

    /**
     * Inserts before the journal's last line one copy of its first with four million token events,
     * and removes the journal's seal, which the edit would break (the merge would refuse it first).
     */
    private static void widenJournal(Path runDir) throws Exception {
        Path journal = runDir.resolve("requests.jsonl");
        Files.delete(runDir.resolve("requests.jsonl.sha256"));
        List<String> lines = Files.readAllLines(journal);
        String first = lines.getFirst();
        int events = first.indexOf("\"token_times_ms\":[");
        assertThat(events).as("the journal's token events").isPositive();
        int open = first.indexOf('[', events);
        try (BufferedWriter out =
                Files.newBufferedWriter(journal, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (String line : lines.subList(0, lines.size() - 1)) {
                out.write(line);
                out.newLine();
            }
            out.write(first, 0, open + 1);
            for (int i = 0; i < 4_000_000; i++) {
                out.write(i == 0 ? "1.5" : ",1.5");
            }
            out.write(first, first.indexOf(']', open), first.length() - first.indexOf(']', open));
            out.newLine();
            out.write(lines.getLast());
            out.newLine();
        }
    }

    private String runCli(String... args) throws Exception {
        Path log = Files.createTempFile(dir, "cli", ".log");
        Process process = CliProcess.start(TINY_HEAP, null, log, args);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the CLI ended").isTrue();
        String output = Files.readString(log);
        assertThat(process.exitValue()).as(output).isNotZero();
        return output;
    }
}
