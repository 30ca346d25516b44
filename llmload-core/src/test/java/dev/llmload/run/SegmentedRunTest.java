package dev.llmload.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.load.FixedSimulator;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.JournalSeal;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.report.merge.SegmentMerge;
import dev.llmload.report.write.RunRebuild;
import dev.llmload.sim.server.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run spread over three segments sends exactly the requests of the same run on one host, and
 * {@code llmload merge} makes one report of them whose figures agree with that run's.
 */
@Tag("loopback")
class SegmentedRunTest {

    private static SimServer sim;
    private static String url;

    @BeforeAll
    static void start() {
        sim = FixedSimulator.start(20, 2, Map.of());
        url = sim.url();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    // Latency and throughput of runs made one after another must agree: a neighbour's load during
    // one of them would part them.
    @Tag("timing")
    void threeOpenLoopSegmentsSendTheSingleRunsRequestsAndMergeIntoItsReport(@TempDir Path dir) throws Exception {
        BenchmarkRun.Result single = SimulatorRuns.run(openLoop(dir.resolve("single"), null, null));
        BenchmarkRun.Result again = SimulatorRuns.run(openLoop(dir.resolve("again"), null, null));
        // Time for the three segments to get ready in this warm JVM (well under a second), so that
        // none starts late and every intended send keeps its place on the common clock.
        Instant start = Instant.now().plusSeconds(2);
        List<Path> segments = runSegments(dir, 3, i -> openLoop(dir.resolve("s" + i), i + "/3", start));

        SegmentMerge.Merged merged = SegmentMerge.merge(dir.resolve("merged"), segments, false);

        // The same requests: global index, prompt length and intended send time, request for request.
        assertThat(fingerprints(journal(dir.resolve("merged")))).isEqualTo(fingerprints(single.records()));
        for (int i = 0; i < 3; i++) {
            int segment = i;
            assertThat(journal(segments.get(i))).allSatisfy(r -> {
                assertThat(r.requestId()).contains("-s" + segment + "of3-");
                assertThat(index(r) % 3).isEqualTo(segment);
            });
        }
        RunReport whole = merged.report();
        RunReport one = single.report();
        assertThat(whole.results().requests()).isEqualTo(one.results().requests());
        assertThat(whole.results().outputTokens().mean())
                .isEqualTo(one.results().outputTokens().mean());
        assertThat(whole.run().segments()).hasSize(3);
        // Latency and rate agree within what two runs on one host differ by, with a floor for a busy host.
        double ttftSpread = Math.abs(
                again.report().results().ttftMs().p50() - one.results().ttftMs().p50());
        assertThat(whole.results().ttftMs().p50())
                .isCloseTo(
                        one.results().ttftMs().p50(),
                        org.assertj.core.api.Assertions.within(Math.max(3 * ttftSpread, 10.0)));
        assertThat(whole.results().requestThroughput())
                .isCloseTo(one.results().requestThroughput(), org.assertj.core.api.Assertions.withinPercentage(10));

        // Merging again, elsewhere, writes the same report, byte for byte.
        SegmentMerge.merge(dir.resolve("merged-again"), segments, false);
        assertThat(Files.readString(dir.resolve("merged-again").resolve(ReportFiles.REPORT_JSON)))
                .isEqualTo(Files.readString(dir.resolve("merged").resolve(ReportFiles.REPORT_JSON)));

        // What is not one whole run is refused, naming the directory or segment at fault.
        assertThatThrownBy(() -> SegmentMerge.merge(dir.resolve("m1"), segments.subList(0, 2), false))
                .hasMessageContaining("segment 2 of 3 missing");
        assertThatThrownBy(() -> SegmentMerge.merge(
                        dir.resolve("m2"), List.of(segments.get(0), segments.get(1), segments.get(1)), false))
                .hasMessageContaining("segment 1/3 is given twice");
        assertThatThrownBy(() ->
                        SegmentMerge.merge(dir.resolve("m3"), List.of(segments.get(0), dir.resolve("single")), false))
                .hasMessageContaining(dir.resolve("single") + " is not a segment");
        SegmentMerge.Merged partial = SegmentMerge.merge(dir.resolve("m4"), segments.subList(0, 2), true);
        assertThat(partial.missing()).containsExactly(2);
        assertThat(partial.report().notes()).anyMatch(n -> n.kind().equals("segments_missing"));
    }

    @Test
    void aClosedLoopDividesItsConcurrencyAndRequestsOverTheSegments(@TempDir Path dir) throws Exception {
        List<Path> segments = runSegments(dir, 3, i -> closedLoop(dir.resolve("s" + i), i + "/3"));
        List<Integer> peaks = new ArrayList<>();
        Set<Long> indexes = new TreeSet<>();
        for (Path segment : segments) {
            List<RequestRecord> records = journal(segment);
            peaks.add(peakInFlight(records));
            records.forEach(r -> indexes.add(index(r)));
        }
        assertThat(peaks).containsExactly(6, 5, 5);
        assertThat(indexes).hasSize(48).first().isEqualTo(0L);
        assertThat(((TreeSet<Long>) indexes).last()).isEqualTo(47L);
        SegmentMerge.Merged merged = SegmentMerge.merge(dir.resolve("merged"), segments, false);
        assertThat(merged.report().results().requests().succeeded()).isEqualTo(48);
        mergedLinesCarryTheirSegmentsWallClock(dir.resolve("merged"), segments);

        // A report whose start is not an instant is refused in one line, naming the field.
        Path report = segments.get(0).resolve(ReportFiles.REPORT_JSON);
        String text = Files.readString(report);
        Files.writeString(
                report,
                text.replaceFirst("\"origin_wall_clock\"\\s*:\\s*\"[^\"]*\"", "\"origin_wall_clock\": \"yesterday\""));
        assertThatThrownBy(() -> SegmentMerge.merge(dir.resolve("merged-bad-origin"), segments, false))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageEndingWith("run.segment.origin_wall_clock is not an instant: yesterday");
    }

    /**
     * Each merged line's {@code *_epoch_ns} is its segment's start on the wall clock (report.json's
     * {@code run.segment.origin_wall_clock}) plus the line's own offset, worked out here by hand,
     * and agrees with the segment's own line, whose journal read the same clock at the same start
     * once more (so within a millisecond, not to the nanosecond).
     */
    private static void mergedLinesCarryTheirSegmentsWallClock(Path merged, List<Path> segments) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.Map<String, Long> originById = new java.util.HashMap<>();
        java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> segmentLineById = new java.util.HashMap<>();
        for (Path segment : segments) {
            java.time.Instant origin = java.time.Instant.parse(
                    json.readTree(segment.resolve(ReportFiles.REPORT_JSON).toFile())
                            .at("/run/segment/origin_wall_clock")
                            .asText());
            long originNs = origin.getEpochSecond() * 1_000_000_000L + origin.getNano();
            for (String line : Files.readAllLines(segment.resolve(dev.llmload.record.Journal.FILE_NAME))) {
                var node = json.readTree(line);
                originById.put(node.get("request_id").asText(), originNs);
                segmentLineById.put(node.get("request_id").asText(), node);
            }
        }
        List<String> lines = Files.readAllLines(merged.resolve(dev.llmload.record.Journal.FILE_NAME));
        assertThat(lines).hasSize(48);
        for (String line : lines) {
            var node = json.readTree(line);
            String id = node.get("request_id").asText();
            double sentMs = node.get("sent_ms").asDouble();
            for (String field : List.of("sent", "first_byte", "end")) {
                long epochNs = node.get(field + "_epoch_ns").asLong();
                // sent_ms counts from the run's start, first_byte_ms and end_ms from the send; each
                // is kept to the microsecond.
                double offsetMs = field.equals("sent")
                        ? sentMs
                        : sentMs + node.get(field + "_ms").asDouble();
                assertThat((double) epochNs)
                        .as("%s %s_epoch_ns: its segment's origin + its offset", id, field)
                        .isCloseTo(
                                originById.get(id) + offsetMs * 1e6, org.assertj.core.api.Assertions.within(2_000.0));
                assertThat((double) epochNs)
                        .as("%s %s_epoch_ns against the segment's own line", id, field)
                        .isCloseTo(
                                segmentLineById.get(id).get(field + "_epoch_ns").asDouble(),
                                org.assertj.core.api.Assertions.within(1e6));
            }
        }
    }

    /**
     * Sessions are dealt whole: session k to segment k mod 3, every turn of it there, each turn the
     * single run's same turn (its prompt grows by the same tokens); request indexes stay unique.
     */
    @Test
    void sessionsAreDealtWholeOverTheSegments(@TempDir Path dir) throws Exception {
        BenchmarkRun.Result single = SimulatorRuns.run(sessions(dir.resolve("single"), null));
        List<Path> segments = runSegments(dir, 3, i -> sessions(dir.resolve("s" + i), i + "/3"));

        java.util.Map<String, Integer> turns = new java.util.TreeMap<>();
        Set<Long> indexes = new TreeSet<>();
        long succeeded = 0;
        for (int i = 0; i < 3; i++) {
            for (RequestRecord r : journal(segments.get(i))) {
                assertThat(r.session().sessionId() % 3)
                        .as("session of segment " + i)
                        .isEqualTo(i);
                turns.put(r.session().sessionId() + ":" + r.session().turn(), r.inputTokens());
                assertThat(indexes.add(r.index()))
                        .as("index " + r.index() + " once")
                        .isTrue();
                succeeded += r.succeeded() ? 1 : 0;
            }
        }
        // Which sessions the request bound cuts depends on timing; every turn sent both ways is the same turn.
        java.util.Map<String, Integer> singleTurns = new java.util.TreeMap<>();
        single.records()
                .forEach(r -> singleTurns.put(
                        r.session().sessionId() + ":" + r.session().turn(), r.inputTokens()));
        Set<String> both = new TreeSet<>(turns.keySet());
        both.retainAll(singleTurns.keySet());
        assertThat(both).hasSizeGreaterThanOrEqualTo(singleTurns.size() / 2);
        for (String turn : both) {
            assertThat(turns.get(turn))
                    .as("input tokens of session:turn " + turn)
                    .isEqualTo(singleTurns.get(turn));
        }

        SegmentMerge.Merged merged = SegmentMerge.merge(dir.resolve("merged"), segments, false);
        assertThat(merged.report().results().requests().succeeded()).isEqualTo(succeeded);
    }

    /**
     * {@code --num-sessions 7} over 3 segments is 3, 2 and 2 sessions: segment i runs the sessions
     * k &lt; 7 with k mod 3 = i, whole, in a closed loop and in an open loop alike, and the merged
     * report counts the 7. A segment left no session refuses to start.
     */
    @Test
    void aCountOfSessionsIsDividedOverTheSegments(@TempDir Path dir) throws Exception {
        for (boolean open : new boolean[] {false, true}) {
            Path runs = dir.resolve(open ? "open" : "closed");
            List<Path> segments = runSegments(runs, 3, i -> countedSessions(runs.resolve("s" + i), i + "/3", open, 7));
            long[][] expected = {{0, 3, 6}, {1, 4}, {2, 5}};
            for (int i = 0; i < 3; i++) {
                Set<Long> ids = new TreeSet<>();
                for (RequestRecord r : journal(segments.get(i))) {
                    ids.add(r.session().sessionId());
                }
                assertThat(ids)
                        .as("sessions of segment %s, %s loop", i, open ? "open" : "closed")
                        .containsExactly(
                                java.util.Arrays.stream(expected[i]).boxed().toArray(Long[]::new));
            }
            SegmentMerge.Merged merged = SegmentMerge.merge(runs.resolve("merged"), segments, false);
            assertThat(merged.report().results().sessions().sessions()).isEqualTo(7);
            assertThat(merged.report().results().sessions().turns()).isEqualTo(7 * 2);
        }
        assertThatThrownBy(() -> SimulatorRuns.run(countedSessions(dir.resolve("none"), "2/3", false, 2)))
                .isInstanceOf(RunException.class)
                .hasMessage("--num-sessions 2 over 3 segments leaves segment 2/3 no session; use at most 2 segments");
    }

    @Test
    void oneSegmentMergedAloneEqualsItsOwnReport(@TempDir Path dir) throws Exception {
        Path segment = dir.resolve("only");
        BenchmarkRun.Result only = SimulatorRuns.run(closedLoop(segment, "0/1"));
        SegmentMerge.Merged merged = SegmentMerge.merge(dir.resolve("merged"), List.of(segment), false);
        RunRebuild.Rebuilt rebuilt = RunRebuild.rebuild(segment);
        assertThat(merged.report().results()).isEqualTo(rebuilt.report().results());
        assertThat(merged.report().results()).isEqualTo(only.report().results());
    }

    /**
     * A segment's journal is sealed when its run ends, and the merge checks it: one digit of one
     * line changed afterwards is refused, naming the file; without its seal (as a killed run
     * leaves it) the segment merges, noted as unverified.
     */
    @Test
    void aSegmentWhoseJournalWasEditedIsRefusedAndOneWithoutASealIsMergedUnverified(@TempDir Path dir)
            throws Exception {
        List<Path> segments = runSegments(dir, 2, i -> closedLoop(dir.resolve("s" + i), i + "/2"));
        Path journal = segments.get(1).resolve(Journal.FILE_NAME);
        Path seal = JournalSeal.of(journal);
        assertThat(seal).exists();

        SegmentMerge.Merged untouched = SegmentMerge.merge(dir.resolve("untouched"), segments, false);
        assertThat(untouched.records()).isEqualTo(48);
        assertThat(untouched.report().notes()).noneMatch(n -> n.kind().equals("segment_unverified"));
        assertThat(JournalSeal.check(dir.resolve("untouched").resolve(Journal.FILE_NAME)))
                .isEqualTo(JournalSeal.Verdict.VERIFIED);

        // A plausible edit: one digit of the third line's TTFT, the line still valid JSON and a valid record.
        List<String> lines = new ArrayList<>(Files.readAllLines(journal));
        String line = lines.get(2);
        int digit = line.indexOf("\"ttft_ms\":") + "\"ttft_ms\":".length();
        char was = line.charAt(digit);
        lines.set(2, line.substring(0, digit) + (char) (was == '9' ? '8' : was + 1) + line.substring(digit + 1));
        Files.write(journal, lines);
        assertThat(JournalReader.read(journal)).hasSize(24);

        assertThatThrownBy(() -> SegmentMerge.merge(dir.resolve("edited"), segments, false))
                .hasMessageContaining(journal.toString())
                .hasMessageContaining("not merged")
                .hasMessageNotContaining("\n");
        assertThat(dir.resolve("edited")).doesNotExist();

        Files.delete(seal);
        SegmentMerge.Merged unverified = SegmentMerge.merge(dir.resolve("unverified"), segments, false);
        assertThat(unverified.records()).isEqualTo(48);
        assertThat(unverified.report().notes())
                .filteredOn(n -> n.kind().equals("segment_unverified"))
                .singleElement()
                .satisfies(n -> assertThat(n.message()).startsWith("segment 1/2 (s1)"));
    }

    /** 120 requests in 1.5 s: at 40 a second the test's three open loops took 9 of its 12 s. */
    private static RunConfig openLoop(Path out, String segment, Instant startAt) {
        return RunConfig.builder()
                .url(url)
                .requestRate(80.0)
                .arrival("poisson")
                .numRequests(120L)
                .inputTokens("uniform:20:60")
                .outputTokens("8")
                .tokenizer("cl100k_base")
                .seed(11)
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1)
                .segment(segment)
                .startAt(startAt == null ? null : startAt.toString())
                .build();
    }

    /** Sessions of 2 to 4 turns of 8 to 40 new tokens each, started at 20 per second; 36 requests in all. */
    private static RunConfig sessions(Path out, String segment) {
        return RunConfig.builder()
                .url(url)
                .requestRate(20.0)
                .arrival("poisson")
                .numRequests(36L)
                .sessions("uniform:2:4")
                .thinkTime("5")
                .inputTokens("uniform:8:40")
                .outputTokens("4")
                .tokenizer("cl100k_base")
                .seed(11)
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1)
                .segment(segment)
                .build();
    }

    /** {@code count} sessions of 2 turns, kept 16 in flight or started at 20 per second; no other bound. */
    private static RunConfig countedSessions(Path out, String segment, boolean open, int count) {
        RunConfig.Builder builder = RunConfig.builder()
                .url(url)
                .sessions("2")
                .numSessions(count)
                .inputTokens("uniform:8:40")
                .outputTokens("4")
                .tokenizer("cl100k_base")
                .seed(11)
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1)
                .segment(segment);
        return (open ? builder.requestRate(20.0) : builder).build();
    }

    private static RunConfig closedLoop(Path out, String segment) {
        return RunConfig.builder()
                .url(url)
                .load(Load.closed(16))
                .numRequests(48L)
                .inputTokens("32")
                .outputTokens("20")
                .tokenizer("cl100k_base")
                .seed(11)
                .grace(Duration.ofSeconds(5))
                .outputDir(out)
                .ioThreads(1)
                .segment(segment)
                .build();
    }

    /** Runs {@code count} segments at once, as separate hosts would; returns their directories. */
    private static List<Path> runSegments(Path dir, int count, java.util.function.IntFunction<RunConfig> config)
            throws Exception {
        List<RunConfig> configs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            configs.add(config.apply(i));
        }
        ExecutorService hosts = Executors.newFixedThreadPool(count);
        try {
            List<Future<BenchmarkRun.Result>> results = new ArrayList<>();
            for (RunConfig c : configs) {
                results.add(hosts.submit(() -> SimulatorRuns.run(c)));
            }
            List<Path> dirs = new ArrayList<>();
            for (Future<BenchmarkRun.Result> result : results) {
                dirs.add(result.get().directory());
            }
            return dirs;
        } finally {
            hosts.shutdownNow();
        }
    }

    private static List<RequestRecord> journal(Path dir) throws Exception {
        return dev.llmload.record.JournalReader.read(dir.resolve(dev.llmload.record.Journal.FILE_NAME));
    }

    private static long index(RequestRecord record) {
        String id = record.requestId();
        return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
    }

    private static Set<String> fingerprints(List<RequestRecord> records) {
        return records.stream()
                .filter(r -> !r.warmup())
                .map(r -> index(r) + ":" + r.inputTokens() + ":" + r.timings().intendedSendNanos())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The most requests in flight at once: sends and ends as +1 and −1 in time order. */
    private static int peakInFlight(List<RequestRecord> records) {
        List<long[]> edges = new ArrayList<>();
        for (RequestRecord r : records) {
            edges.add(new long[] {r.timings().sentNanos(), 1});
            edges.add(new long[] {r.timings().endNanos(), -1});
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int inFlight = 0;
        int peak = 0;
        for (long[] edge : edges) {
            inFlight += (int) edge[1];
            peak = Math.max(peak, inFlight);
        }
        return peak;
    }
}
