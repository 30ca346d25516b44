package dev.llmload.report.merge;

import dev.llmload.client.ClientCost;
import dev.llmload.config.Client;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.JournalSeal;
import dev.llmload.record.RecordSource;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.Measurements;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.RunReport;
import dev.llmload.report.write.RunFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * {@code llmload merge}: one run directory from the directories of a run's segments
 * (docs/distributed.md). Every statistic is computed from the union of the segments' journals, as
 * one host's run would compute it from its own, never from the segments' percentiles. The
 * segments started their clocks at one shared instant, so their records' offsets are on one time
 * axis as they stand. The merged journal holds the segments' journals one after another, in
 * segment order.
 *
 * <p>It refuses directories that are not one run: a directory without a segment, segments of
 * different configurations (apart from the segment itself, the output directory and the client's
 * threads), of different data (content hash) or numbers of segments, a segment given twice, and,
 * unless partial merges are allowed, a missing one; and a segment whose journal is not the one its
 * run sealed ({@link JournalSeal}: a line changed after the run). A segment without a seal (its
 * run was killed) is merged, and the report notes that it could not be verified. The merged report is the same bytes however
 * often it is made and wherever it is written: its run id is made from the segments' ids, its
 * records are in segment order.
 *
 * <p>Memory: no record is held. The copy of the segments' journals into the merged one is the
 * first pass of {@link Measurements#derive}; its token pass reads the merged journal as {@code
 * llmload report} reads a run's (docs/performance.md gives the figures).
 */
public final class SegmentMerge {

    /** A segment whose start error differs from another's by more than this is noted. */
    static final double START_SKEW_NOTE_MS = 10;
    /** A segment whose send lag p99 (open loop, no gate) passes this fell behind its schedule. */
    static final double BEHIND_NOTE_MS = 10;

    /** The note of a segment merged without a seal to check its journal against. */
    static final String SEGMENT_UNVERIFIED = "segment_unverified";

    private SegmentMerge() {}

    /** What a merge wrote: the report and how many records it rests on. */
    public record Merged(RunReport report, int records, List<Integer> missing) {}

    /**
     * Writes report.json, summary.csv, timeseries.csv, report.html and requests.jsonl of the whole
     * run into {@code out}.
     *
     * @param allowPartial merge what is there when segments are missing, and say which in a note
     * @throws IOException with a one-line reason naming the directory at fault
     */
    public static Merged merge(Path out, List<Path> dirs, boolean allowPartial) throws IOException {
        if (dirs.isEmpty()) {
            throw new IOException("give the directories of the segments to merge");
        }
        List<Part> parts = new ArrayList<>();
        for (Path dir : dirs) {
            parts.add(Part.read(dir));
        }
        parts.sort(Comparator.comparingInt(p -> p.start().index()));
        Part first = parts.getFirst();
        int count = first.start().count();
        TreeMap<Integer, Part> byIndex = new TreeMap<>();
        for (Part part : parts) {
            if (part.start().count() != count) {
                throw new IOException(part.dir() + " is segment " + part.label() + ", but " + first.dir() + " is of "
                        + count + " segments: not one run");
            }
            Part twice = byIndex.put(part.start().index(), part);
            if (twice != null) {
                throw new IOException(
                        "segment " + part.label() + " is given twice: " + twice.dir() + " and " + part.dir());
            }
            if (!sameRun(first.report().config(), part.report().config())) {
                throw new IOException(part.dir() + " was run with other options than " + first.dir()
                        + ": segments of one run differ only in --segment and --output-dir");
            }
            if (!java.util.Objects.equals(
                    first.report().data().contentHash(), part.report().data().contentHash())) {
                throw new IOException(part.dir() + " sent other data than " + first.dir() + " (content hash "
                        + part.report().data().contentHash() + " against "
                        + first.report().data().contentHash() + ")");
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!byIndex.containsKey(i)) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty() && !allowPartial) {
            throw new IOException("segment" + (missing.size() > 1 ? "s " : " ") + join(missing) + " of " + count
                    + " missing: give every segment's directory, or --allow-partial to merge the others");
        }

        // Every journal is checked against its seal before anything is written.
        List<Part> unsealed = new ArrayList<>();
        for (Part part : byIndex.values()) {
            JournalSeal.Verdict verdict;
            try {
                verdict = JournalSeal.check(part.journal());
            } catch (IOException e) {
                throw new IOException(
                        e.getMessage() + "; not merged (to merge segment " + part.label()
                                + " as it is, unverified, remove " + JournalSeal.of(part.journal()) + ")",
                        e);
            }
            if (verdict == JournalSeal.Verdict.UNSEALED) {
                unsealed.add(part);
            }
        }

        // The copy is the derivation's first pass: each segment's journal is read once, a line at a
        // time, each record copied into the merged journal, counted for its segment's row and handed
        // on as the merged journal holds it; then the token pass reads the merged journal as
        // `llmload report` of the merged directory would (no record held). The union is the
        // segments' records one segment after another. A second pass of the copy writes the same
        // journal again.
        Files.createDirectories(out);
        Path mergedJournal = out.resolve(Journal.FILE_NAME);
        List<RunReport.SegmentSummary> summaries = new ArrayList<>();
        int[] union = {0};
        RecordSource compact = consumer -> {
            summaries.clear();
            union[0] = 0;
            try (Journal journal = Journal.create(mergedJournal)) {
                for (Part part : byIndex.values()) {
                    RunResults.Accumulator segment = new RunResults.Accumulator(null);
                    int[] records = {0};
                    IOException[] failed = new IOException[1];
                    // The segment's offsets count from its own start, on its own host's clock.
                    journal.anchorWallClockAt(part.origin());
                    JournalReader.forEach(part.journal(), record -> {
                        if (failed[0] == null) {
                            RequestRecord held;
                            try {
                                held = journal.append(record);
                            } catch (IOException e) {
                                failed[0] = e;
                                return;
                            }
                            consumer.accept(held);
                        }
                        segment.add(record);
                        records[0]++;
                    });
                    if (failed[0] != null) {
                        throw failed[0];
                    }
                    union[0] += records[0];
                    // The segment's row has no inter-token figure.
                    RunResults results = segment.result(new InterTokenGaps());
                    RunReport.SegmentStart start = part.start();
                    summaries.add(new RunReport.SegmentSummary(
                            start.index(),
                            part.dir().getFileName().toString(),
                            results.requests().attempted(),
                            results.requests().succeeded(),
                            results.errorRate(),
                            results.requestThroughput(),
                            results.outputTokenThroughput(),
                            start.startErrorMs(),
                            results.clientQueueTimeMs().p99()));
                }
            }
        };
        RecordSource full = JournalReader.source(List.of(mergedJournal));

        RunReport base = first.report();
        RunConfig whole = withoutSegment(base.config());
        Measurements measurements;
        try {
            measurements = Measurements.derive(compact, full, whole);
        } catch (IllegalArgumentException e) {
            throw new IOException("the recorded --slo does not parse: " + e.getMessage(), e);
        }
        String startedAt = parts.stream()
                .map(p -> p.report().run().startedAt())
                .min(String::compareTo)
                .orElse(null);
        String endedAt = parts.stream()
                .map(p -> p.report().run().endedAt())
                .filter(java.util.Objects::nonNull)
                .max(String::compareTo)
                .orElse(null);
        boolean interrupted = parts.stream().anyMatch(p -> p.report().run().interrupted());
        RunReport.Run run = new RunReport.Run(
                runId(parts),
                startedAt,
                endedAt,
                base.run().commandLine(),
                base.run().seed(),
                interrupted,
                base.run().client(),
                null,
                List.copyOf(summaries));
        // The segment's own notes on its requests give way to the union's in withMeasurements.
        // Each segment's client measured only itself: its client_saturated note is kept, naming the
        // segment, and the merged report has no client section of its own.
        List<Note> notes = new ArrayList<>(base.notes().stream()
                .filter(n -> !n.kind().equals(ClientCost.CLIENT_SATURATED))
                .toList());
        for (Part part : byIndex.values()) {
            part.report().notes().stream()
                    .filter(n -> n.kind().equals(ClientCost.CLIENT_SATURATED))
                    .forEach(n -> notes.add(
                            new Note(n.kind(), "segment " + part.start().index() + ": " + n.message())));
        }
        notes.addAll(notes(summaries, missing, count, whole));
        for (Part part : unsealed) {
            notes.add(new Note(
                    SEGMENT_UNVERIFIED,
                    "segment " + part.label() + " (" + part.dir().getFileName()
                            + ") has no " + JournalSeal.of(part.journal()).getFileName()
                            + ": its run did not close its journal"
                            + " (killed, or stopped by a failed write), so its requests are merged as its journal holds them,"
                            + " unverified"));
        }
        RunReport merged = new RunReport(
                        base.schemaVersion(),
                        base.tool(),
                        run,
                        base.model(),
                        base.service(),
                        base.hardware(),
                        base.load(),
                        base.data(),
                        base.results(),
                        base.telemetry(),
                        base.efficiency(),
                        notes,
                        whole,
                        base.timeseries(),
                        base.schedule(),
                        null,
                        null,
                        null)
                .withMeasurements(measurements, endedAt, interrupted);

        RunFiles.write(out, merged, measurements.page(), full);
        return new Merged(merged, union[0], List.copyOf(missing));
    }

    /** The notes of the merge itself: missing segments, a skewed start, a segment behind or failing alone. */
    static List<Note> notes(
            List<RunReport.SegmentSummary> segments, List<Integer> missing, int count, RunConfig config) {
        List<Note> notes = new ArrayList<>();
        if (!missing.isEmpty()) {
            notes.add(new Note(
                    "segments_missing",
                    "segment" + (missing.size() > 1 ? "s " : " ") + join(missing)
                            + " of " + count + " missing: this report covers " + (count - missing.size()) + " of "
                            + count
                            + " segments, so its rates are those of part of the load"));
        }
        List<Double> errors = segments.stream()
                .map(RunReport.SegmentSummary::startErrorMs)
                .filter(java.util.Objects::nonNull)
                .toList();
        if (errors.size() > 1) {
            double skew = errors.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                    - errors.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            if (skew > START_SKEW_NOTE_MS) {
                notes.add(new Note(
                        "segment_start_skew",
                        String.format(
                                Locale.ROOT,
                                "the segments started their clocks up to %.1f ms apart by their own clocks (threshold %.0f ms): "
                                        + "latencies are unaffected, but send times across segments are offset by up to that",
                                skew,
                                START_SKEW_NOTE_MS)));
            }
        }
        boolean paced = config.load().isOpen() && config.load().maxConcurrency() == null;
        for (RunReport.SegmentSummary segment : segments) {
            if (paced && segment.sendLagP99Ms() != null && segment.sendLagP99Ms() > BEHIND_NOTE_MS) {
                notes.add(new Note(
                        "segment_behind",
                        String.format(
                                Locale.ROOT,
                                "segment %d/%d sent its requests up to %.1f ms after their intended times (p99; threshold %.0f ms):"
                                        + " its host fell behind the schedule",
                                segment.index(),
                                count,
                                segment.sendLagP99Ms(),
                                BEHIND_NOTE_MS)));
            }
        }
        double fewest = segments.stream()
                .mapToDouble(s -> s.errorRate() == null ? 0 : s.errorRate())
                .min()
                .orElse(0);
        for (RunReport.SegmentSummary segment : segments) {
            double rate = segment.errorRate() == null ? 0 : segment.errorRate();
            if (rate > 0 && rate - fewest >= 0.05) {
                notes.add(new Note(
                        "segment_errors",
                        String.format(
                                Locale.ROOT,
                                "segment %d/%d failed %.1f%% of its requests, another segment %.1f%%: look at that host "
                                        + "(its network, its file descriptors) before blaming the server",
                                segment.index(),
                                count,
                                rate * 100,
                                fewest * 100)));
            }
        }
        return notes;
    }

    /** Two segments' configurations are of one run when they differ only in their segment, directory and threads. */
    private static boolean sameRun(RunConfig a, RunConfig b) {
        return withoutSegment(a).equals(withoutSegment(b));
    }

    private static RunConfig withoutSegment(RunConfig config) {
        Client client = config.client();
        return config.withOutputDir(null).withClient(new Client(1, null, client.startAt(), client.startInstant()));
    }

    /** {@code merged-<12 hex>} of the segments' run ids: the same for the same segments, wherever merged. */
    private static String runId(List<Part> parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Part part : parts) {
                sha.update(part.report().run().id().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return "merged-" + HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String join(List<Integer> indexes) {
        return String.join(", ", indexes.stream().map(String::valueOf).toList());
    }

    /** One segment's directory as read. */
    /** @param origin the wall-clock instant of the segment's start, its records' offset 0; null where its report has none */
    private record Part(Path dir, RunReport report, RunReport.SegmentStart start, Instant origin, Path journal) {

        String label() {
            return start.index() + "/" + start.count();
        }

        static Part read(Path dir) throws IOException {
            Path file = dir.resolve(ReportFiles.REPORT_JSON);
            if (!Files.isRegularFile(file)) {
                throw new IOException(dir + " has no " + ReportFiles.REPORT_JSON
                        + ": run llmload report on it first if its run was killed");
            }
            RunReport report = ReportFiles.readReport(file);
            RunReport.SegmentStart start = report.run().segment();
            if (start == null) {
                throw new IOException(dir + " is not a segment of a run: it was run without --segment");
            }
            Path journal = dir.resolve(Journal.FILE_NAME);
            if (!Files.isRegularFile(journal)) {
                throw new IOException(dir + " has no " + Journal.FILE_NAME);
            }
            Instant origin;
            try {
                origin = start.originWallClock() == null ? null : Instant.parse(start.originWallClock());
            } catch (DateTimeParseException e) {
                throw new IOException(
                        file + ": run.segment.origin_wall_clock is not an instant: " + start.originWallClock());
            }
            return new Part(dir, report, start, origin, journal);
        }
    }
}
