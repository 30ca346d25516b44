package dev.llmload.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.analysis.SteadyState;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.DoubleList;
import dev.llmload.metrics.RunResults;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenSource;
import dev.llmload.report.html.HtmlReport;
import dev.llmload.stats.Percentile;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The derivation of a run too large to hold: a pass over the records without their token gaps and
 * one over them in full give exactly what the records in full give, and a page of a big run stays
 * small.
 */
class BigRunDerivationTest {

    @TempDir
    Path dir;

    @Test
    void recordsWithoutTokenGapsPlusOneStreamOfTheJournalGiveTheSameMeasurements() throws Exception {
        List<RequestRecord> full = ReportFixtures.records(400, 8, 7);
        RunConfig config = RunConfig.builder().concurrency(8).build();
        Path journal = dir.resolve(Journal.FILE_NAME);
        try (Journal writer = Journal.create(journal)) {
            for (RequestRecord record : full) {
                writer.append(record);
            }
        }
        List<RequestRecord> compact = new ArrayList<>();
        JournalReader.forEach(journal, record -> compact.add(record.withoutTokenGaps()));
        assertThat(compact).hasSize(full.size());
        assertThat(compact.get(compact.size() - 1).timings().tokenEventNanos()).hasSizeLessThanOrEqualTo(1);

        Measurements whole = Measurements.derive(JournalReader.read(journal), config);
        Measurements streamed =
                Measurements.derive(compact::forEach, consumer -> JournalReader.forEach(journal, consumer), config);
        assertThat(ReportFiles.JSON.writeValueAsString(streamed)).isEqualTo(ReportFiles.JSON.writeValueAsString(whole));
        assertThat(whole.results().itlMs().count()).isPositive();
        assertThat(streamed.page().spectra().get("itl_ms").exact()).isTrue();

        // Each part as computed on its own from the records in full: the one stream gives the same.
        List<RequestRecord> read = JournalReader.read(journal);
        assertThat(streamed.steadyState().reached()).isTrue();
        assertThat(json(streamed.steadyState())).isEqualTo(json(SteadyState.of(read, null)));
        assertThat(json(streamed.results())).isEqualTo(json(RunResults.compute(read, null)));
        assertThat(json(streamed.timeseries())).isEqualTo(json(TimeSeries.of(read)));
    }

    @Test
    void aJournalFoldedAChunkAtATimeOnItsParsingThreadsGivesTheMeasurementsOfOneStream() throws Exception {
        // 9,000 requests of 128 events, every seventh event carrying two tokens: 1.14 million gaps,
        // past the run's exact capacity of 2^20, in a 14 MB journal, so several chunks on their
        // own threads, each a part merged into histograms.
        List<RequestRecord> records = new ArrayList<>();
        for (RequestRecord r : ReportFixtures.records(9_000, 64, 11)) {
            int[] counts = r.tokenEventCounts().clone();
            for (int k = 0; k < counts.length; k += 7) {
                counts[k] = 2;
            }
            records.add(new RequestRecord(
                    r.index(),
                    r.requestId(),
                    r.warmup(),
                    r.timings(),
                    counts,
                    r.httpStatus(),
                    r.outcome(),
                    r.inputTokens(),
                    r.inputTokensFromServer(),
                    r.outputTokens(),
                    r.outputTokenSource(),
                    r.finishReason(),
                    r.streamed(),
                    r.retryAfter(),
                    r.session(),
                    r.serverTimings()));
        }
        Path journal = dir.resolve(Journal.FILE_NAME);
        try (Journal writer = Journal.create(journal)) {
            for (RequestRecord record : records) {
                writer.append(record);
            }
        }
        assertThat(Files.size(journal)).isGreaterThan(3 * (1 << 22));
        RunConfig config = RunConfig.builder().concurrency(64).build();
        Measurements oneStream = Measurements.derive(JournalReader.read(journal), config);
        Measurements folded = Measurements.derive(
                consumer -> JournalReader.forEachWithoutTokenGaps(journal, consumer),
                JournalReader.source(List.of(journal)),
                config);
        assertThat(json(folded)).isEqualTo(json(oneStream));
        assertThat(folded.results().itlMs().count()).isGreaterThan(1 << 20);
        assertThat(folded.results().itlMs().percentilesRelativeError()).isNotNull();
        assertThat(folded.results().itlPerTokenMs().count())
                .isGreaterThan(folded.results().itlMs().count());

        // Against the gaps of the measured, successful requests taken apart here from the records
        // read back: counts, extremes and moments as NumPy gives them, percentiles within the
        // histogram's 0.1%.
        DoubleList perEvent = new DoubleList();
        DoubleList perToken = new DoubleList();
        for (RequestRecord record : JournalReader.read(journal)) {
            long[] times = record.timings().tokenEventNanos();
            for (int i = 1; record.succeeded() && !record.warmup() && i < times.length; i++) {
                double gapMs = (times[i] - times[i - 1]) / 1e6;
                int tokens = record.tokenEventCounts()[i];
                perEvent.add(gapMs);
                perToken.add(gapMs / tokens, tokens);
            }
        }
        assertAgrees(folded.results().itlMs(), Statistics.summarize(perEvent.toArray()));
        assertAgrees(folded.results().itlPerTokenMs(), Statistics.summarize(perToken.toArray()));
    }

    private static void assertAgrees(Summary sketched, Summary exact) {
        assertThat(sketched.count()).isEqualTo(exact.count());
        assertThat(sketched.min()).isEqualTo(exact.min());
        assertThat(sketched.max()).isEqualTo(exact.max());
        assertThat(sketched.mean()).isCloseTo(exact.mean(), within(exact.mean() * 1e-12));
        assertThat(sketched.std()).isCloseTo(exact.std(), within(exact.std() * 1e-9));
        for (Percentile p : Percentile.values()) {
            assertThat(sketched.percentile(p))
                    .as(p.key())
                    .isCloseTo(exact.percentile(p), within(exact.percentile(p) * 1e-3));
        }
    }

    private static String json(Object value) throws Exception {
        return ReportFiles.JSON.writeValueAsString(value);
    }

    @Test
    void aSecondPastItsExactCapacityGivesPercentilesWithinTheHistogramsError() {
        List<RequestRecord> records = new ArrayList<>();
        int requests = 50;
        int events = 200; // 50 × 199 gaps in the same second: past the exact capacity
        for (int i = 0; i < requests; i++) {
            long[] times = new long[events];
            int[] counts = new int[events];
            for (int k = 0; k < events; k++) {
                times[k] = 1_000_000L * (k * 4 + i % 3);
                counts[k] = 1;
            }
            records.add(record(i, 0, times[0], times[events - 1], times, counts));
        }
        TimeSeries series = TimeSeries.of(records);
        assertThat(requests * (events - 1)).isGreaterThan(TimeSeries.SECOND_EXACT_CAPACITY);
        assertThat(series.seconds().getFirst().itlP50Ms())
                .isCloseTo(4.0, org.assertj.core.data.Percentage.withPercentage(0.1));
    }

    @Test
    void thePageOfABigRunShowsEveryKthRequestAndStaysSmall() throws Exception {
        List<RequestRecord> records = new ArrayList<>();
        int n = 150_001;
        for (int i = 0; i < n; i++) {
            long sent = i * 1_000_000L;
            records.add(record(
                    i, sent, sent + 50_000_000L, sent + 900_000_000L, new long[] {sent + 900_000_000L}, new int[] {100
                    }));
        }
        RequestColumns columns = RequestColumns.of(records);
        assertThat(columns.every()).isEqualTo(4);
        assertThat(columns.sentS()).hasSize((n + 3) / 4);
        assertThat(columns.sentS()[1]).isEqualTo(0.004);

        Measurements measurements =
                Measurements.derive(records, RunConfig.builder().concurrency(8).build());
        RunReport report =
                ReportFixtures.report("m", 8, records.subList(0, 100)).withMeasurements(measurements, null, false);
        String page = HtmlReport.forRun(report, measurements.page(), java.util.Map.of());
        assertThat(page.length()).isLessThan(5_000_000);
        assertThat(page).contains("\"every\":4");
    }

    private static RequestRecord record(int i, long sent, long firstToken, long end, long[] times, int[] counts) {
        RequestTimings timings = new RequestTimings(sent, sent, firstToken, firstToken, firstToken, end, times);
        int tokens = java.util.Arrays.stream(counts).sum();
        return new RequestRecord(
                i,
                "r-" + i,
                false,
                timings,
                counts,
                200,
                Outcome.SUCCESS,
                100,
                true,
                tokens,
                TokenSource.SERVER,
                "stop",
                true,
                null,
                null,
                null);
    }
}
