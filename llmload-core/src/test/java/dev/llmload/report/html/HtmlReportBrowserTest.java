package dev.llmload.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.analysis.LoadStage;
import dev.llmload.analysis.Records;
import dev.llmload.analysis.Saturation;
import dev.llmload.compare.Comparison;
import dev.llmload.compare.FailIf;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.RequestMetrics;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.SessionCounts;
import dev.llmload.metrics.Slo;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.Efficiency;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.ReportFixtures;
import dev.llmload.report.RunDirectory;
import dev.llmload.report.RunReport;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.RequiredTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens generated pages in headless Chromium. The page writes its own verdict into
 * {@code #llmload-selfcheck} once drawn: every chart with its drawn values and the count of
 * pixels of a series colour in its plot area, errors caught by {@code window.onerror} (and policy
 * violations, which is how a network fetch would show), and dialogs opened. A page passes when
 * nothing went wrong and every chart drew data.
 */
@Tag("process")
class HtmlReportBrowserTest {

    private static HeadlessChromium chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        chromium = HeadlessChromium.find().orElse(null);
    }

    @Test
    void runPageDrawsEveryChartAndShowsAHostileModelNameAsText() throws Exception {
        List<RequestRecord> records = ReportFixtures.records(200, 16, 1);
        RunReport plain = ReportFixtures.report(ReportFixtures.HOSTILE, 16, records);
        RunReport report = new RunReport(
                plain.schemaVersion(),
                plain.tool(),
                plain.run(),
                plain.model(),
                plain.service(),
                plain.hardware(),
                plain.load(),
                plain.data(),
                RunResults.compute(records, new Slo(400.0, 30.0, null)),
                plain.telemetry(),
                new Efficiency(2.49, "USD", 1, 0.4321, 0.1234, 700.0, 90.0, 1.25),
                plain.notes(),
                plain.config(),
                plain.timeseries(),
                plain.schedule(),
                plain.client(),
                plain.saturation(),
                plain.steadyState());

        Opened page = open("run.html", HtmlReport.forRun(report, records, ReportFixtures.telemetry(records)));

        page.assertClean();
        assertThat(page.chartIds())
                .containsExactly(
                        "spectrum-ttft_ms",
                        "spectrum-itl_ms",
                        "spectrum-tpot_ms",
                        "spectrum-e2e_latency_ms",
                        "time-ttft",
                        "time-e2e",
                        "time-throughput",
                        "time-itl",
                        "time-rate",
                        "time-inflight",
                        "time-queue",
                        "hist-isl",
                        "hist-osl",
                        "scatter-ttft-isl",
                        "telemetry-0",
                        "telemetry-1",
                        "telemetry-2",
                        "client-lag",
                        "client-cpu");
        assertThat(page.chartTitles())
                .containsEntry("telemetry-0", "KV cache in use (share, 0–1)")
                .containsEntry("telemetry-1", "Requests waiting at the server (requests)")
                .containsEntry("telemetry-2", "GPU utilisation, mean over GPUs (%)");
        assertThat(page.check.get("heading").asText()).isEqualTo(ReportFixtures.HOSTILE);
        assertThat(page.check.get("title").asText()).startsWith(ReportFixtures.HOSTILE);
        assertThat(page.dom).contains("cost per 1M output tokens (USD)", "0.43", "energy per output token (J)");

        // Goodput as tiles and a table, its share counted here from the records themselves.
        long measured = records.stream().filter(r -> !r.warmup()).count();
        long met = records.stream()
                .filter(r -> !r.warmup() && r.succeeded())
                .map(RequestMetrics::of)
                .filter(m -> m.ttftMs() != null && m.ttftMs() <= 400 && (m.tpotMs() == null || m.tpotMs() <= 30))
                .count();
        String drawn = page.drawn();
        assertThat(drawn)
                .contains(
                        "goodput: requests meeting the SLO",
                        "Goodput (requests meeting every SLO limit)",
                        "TTFT ≤ 400.0 ms, TPOT ≤ 30.00 ms",
                        met + " / " + measured + " (");
        assertThat(drawn).doesNotContain("\"met_share\"");
        // Notes come right after the summary, before any chart.
        assertThat(drawn.indexOf(">Notes<")).isPositive().isLessThan(drawn.indexOf(">Latency distributions<"));
    }

    @Test
    void runPageShowsEachLoadStageWithItsRequests() throws Exception {
        List<RequestRecord> records = ReportFixtures.records(200, 16, 1);
        RunReport plain = ReportFixtures.report("m", 16, records);
        Saturation staged = staged(plain.saturation(), records);
        RunReport report = new RunReport(
                plain.schemaVersion(),
                plain.tool(),
                plain.run(),
                plain.model(),
                plain.service(),
                plain.hardware(),
                plain.load(),
                plain.data(),
                plain.results(),
                plain.telemetry(),
                plain.efficiency(),
                plain.notes(),
                plain.config(),
                plain.timeseries(),
                plain.schedule(),
                plain.client(),
                staged,
                plain.steadyState());

        Opened page = open("stages.html", HtmlReport.forRun(report, records));

        page.assertClean();
        String drawn = page.drawn();
        assertThat(drawn).contains("Load stages: offered / served", "offered concurrency");
        for (LoadStage stage : staged.stages()) {
            // Span, offer and requests sent, as the page formats them (one decimal for the first two).
            assertThat(drawn)
                    .contains(String.format(
                            java.util.Locale.ROOT,
                            "<td>%.1f–%.1f</td><td class=\"num\">%.1f</td><td class=\"num\">%d</td>",
                            stage.startS(),
                            stage.endS(),
                            stage.offeredFrom(),
                            stage.arrivals()));
        }
    }

    /** {@code saturation} as a run with two concurrency steps (8, then 16, a second each) reports it. */
    private static Saturation staged(Saturation s, List<RequestRecord> records) {
        List<LoadStage> stages =
                LoadStage.of(records.stream().filter(r -> !r.warmup()).toList(), Load.Closed.of(8, "8:1s,16:1s"));
        assertThat(stages).hasSize(2).allMatch(stage -> stage.arrivals() > 0);
        return new Saturation(
                s.offeredRequestRate(),
                s.offeredConcurrency(),
                s.arrivals(),
                s.arrivalWindowS(),
                s.scheduledRequestRate(),
                s.achievedRequestRate(),
                s.backlogInFlight(),
                s.backlogQueued(),
                s.startLatencyS(),
                s.steadyBacklog(),
                s.lateBacklogMean(),
                s.drainS(),
                s.saturated(),
                stages);
    }

    @Test
    void runPageWithoutTelemetryLeavesTheTelemetryChartOut() throws Exception {
        List<RequestRecord> records = ReportFixtures.records(200, 8, 2);

        Opened page = open("plain.html", HtmlReport.forRun(ReportFixtures.report("qwen", 8, records), records));

        page.assertClean();
        assertThat(page.chartIds()).hasSize(16).noneMatch(id -> id.startsWith("telemetry"));
    }

    @Test
    void runPageOfSessionsShowsTheirTimeAndLatencyByTurnAndContext() throws Exception {
        List<RequestRecord> plain = ReportFixtures.records(200, 8, 2);
        List<RequestRecord> records = new ArrayList<>();
        // Sessions of four turns, in the records' order.
        for (int i = 0; i < plain.size(); i++) {
            records.add(Records.inSession(plain.get(i), i / 4, i % 4 + 1));
        }
        RunReport report = ReportFixtures.report("qwen", 8, records);
        SessionCounts sessions = report.results().sessions();

        Opened page = open("sessions.html", HtmlReport.forRun(report, records));

        page.assertClean();
        String drawn = page.drawn();
        assertThat(drawn)
                .contains(
                        "Sessions (every subagent counts as one)",
                        "By turn (successful turns)",
                        "TTFT by input length (successful turns)",
                        "ITL p99 (ms)",
                        "task duration p50 / p99 (ms)",
                        // The rows as the report has them: four turns, and the first input bin.
                        ">4<",
                        sessions.byContext().getFirst().fromTokens() + " to "
                                + sessions.byContext().getFirst().toTokens());
        assertThat(sessions.byTurn()).hasSize(4);
        assertThat(page.chartIds()).contains("session-ttft-context");
    }

    @Test
    void sweepPageDrawsLatencyAndPerUserSpeedAgainstThroughputWithMarkersAndSaturatedRuns() throws Exception {
        // The fixture's seven runs, the two heaviest marked saturated as an open loop would report them.
        List<LabeledRun> runs = new ArrayList<>();
        List<LabeledRun> sweep = ReportFixtures.sweep();
        for (int i = 0; i < sweep.size(); i++) {
            RunReport r = sweep.get(i).report();
            runs.add(
                    i < sweep.size() - 2
                            ? sweep.get(i)
                            : new LabeledRun(
                                    sweep.get(i).label(),
                                    new RunReport(
                                            r.schemaVersion(),
                                            r.tool(),
                                            r.run(),
                                            r.model(),
                                            r.service(),
                                            r.hardware(),
                                            r.load(),
                                            r.data(),
                                            r.results(),
                                            r.telemetry(),
                                            r.efficiency(),
                                            r.notes(),
                                            r.config(),
                                            r.timeseries(),
                                            r.schedule(),
                                            r.client(),
                                            new Saturation(
                                                    8.0, null, 120, 15.0, 8.0, 5.0, 30, 10, 0.1, 2.0, 20.0, 6.0, true,
                                                    null),
                                            r.steadyState())));
        }

        Map<String, SweepMarkers.PointLabel> labels = new java.util.LinkedHashMap<>();
        for (LabeledRun run : runs) {
            boolean last = run == runs.getLast();
            labels.put(
                    run.label(),
                    new SweepMarkers.PointLabel(
                            last ? "recheck" : "point",
                            !last,
                            last
                                    ? List.of("saturation: achieved 5.0 of 8.0 req/s", "p99_ttft 583.8 > 400")
                                    : List.of()));
        }
        Opened page = open(
                "sweep.html",
                HtmlReport.forSweep(
                        runs, new SweepMarkers(Map.of("ttft", 400.0, "e2e", 5000.0), 6.5, 7.0, "rate", 8.5, labels)));

        page.assertClean();
        assertThat(page.chartIds()).containsExactly("sweep-ttft", "sweep-tpot", "sweep-e2e", "sweep-speed");
        for (String id : List.of("sweep-ttft", "sweep-tpot", "sweep-e2e")) {
            assertThat(page.seriesPoints(id))
                    .containsEntry("p50", 7)
                    .containsEntry("p99", 7)
                    .containsEntry("saturated", 2);
        }
        assertThat(page.seriesPoints("sweep-speed"))
                .containsEntry("median user", 7)
                .containsEntry("slowest 10%", 7)
                .containsEntry("saturated", 2);
        assertThat(page.drawn())
                .contains("Ringed: saturated runs")
                .contains("<td>recheck</td>", "FAIL: saturation: achieved 5.0 of 8.0 req/s; p99_ttft 583.8 &gt; 400")
                .contains("capacity (offered req/s)", "The capacity is the offered rate 7.000 req/s");
        assertThat(page.drawn().split(">pass</td>", -1))
                .as("points that met the SLO")
                .hasSize(7);
        assertThat(page.drawn().split(">YES</td>", -1))
                .as("saturated cells in the runs table")
                .hasSize(3);
    }

    @Test
    void percentilesOnTooFewSamplesAreMarkedOnTheSweepAndComparisonPages() throws Exception {
        // 50 requests: p99 of TTFT, TPOT and E2E rests on fewer than 100 samples; ITL has thousands of gaps.
        List<RequestRecord> few = ReportFixtures.records(50, 2, 9);
        List<RequestRecord> many = ReportFixtures.records(200, 2, 10);
        RunReport brief = ReportFixtures.report("m", 2, few);
        assertThat(brief.results().ttftMs().lowConfidence()).contains("p99");
        List<LabeledRun> runs =
                List.of(new LabeledRun("short", brief), new LabeledRun("long", ReportFixtures.report("m", 2, many)));

        Opened sweep = open("sweep-few.html", HtmlReport.forSweep(runs, null));
        Opened compare = open("compare-few.html", HtmlReport.forComparison(runs));

        sweep.assertClean();
        compare.assertClean();
        assertThat(sweep.drawn().split("class=\"num low\"", -1))
                .as("TTFT, TPOT, E2E p99 of the short run")
                .hasSize(4);
        assertThat(compare.drawn().split("class=\"num low\"", -1))
                .as("TTFT, TTFC, TPOT, E2E p99 of the short run")
                .hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void aSweepWithoutSaturatedRunsDrawsNoRings() throws Exception {
        Opened page = open("sweep-closed.html", HtmlReport.forSweep(ReportFixtures.sweep(), null));

        page.assertClean();
        assertThat(page.seriesPoints("sweep-speed")).containsOnlyKeys("median user", "slowest 10%");
        assertThat(page.drawn()).doesNotContain("Ringed").doesNotContain(">YES</td>");
    }

    @Test
    void comparisonPageOverlaysExactAndSummaryOnlySpectra() throws Exception {
        List<RequestRecord> first = ReportFixtures.records(200, 8, 3);
        List<RequestRecord> second = ReportFixtures.records(200, 32, 4);
        Opened page = open(
                "compare.html",
                HtmlReport.forComparison(List.of(
                        new LabeledRun(
                                "vllm 0.9 " + ReportFixtures.HOSTILE, ReportFixtures.report("llama", 8, first), first),
                        new LabeledRun("sglang", ReportFixtures.report("llama", 32, second)))));

        page.assertClean();
        assertThat(page.chartIds())
                .containsExactly("compare-ttft_ms", "compare-itl_ms", "compare-tpot_ms", "compare-e2e_latency_ms");
    }

    @Test
    void comparisonPageShowsTheDifferencesIntervalsAndVerdictTheConsolePrints() throws Exception {
        List<RequestRecord> first = ReportFixtures.records(200, 8, 3);
        List<RequestRecord> second = ReportFixtures.records(200, 32, 4);
        RunDirectory baseline = new RunDirectory("c8", Path.of("c8"), ReportFixtures.report("llama", 8, first), first);
        RunDirectory candidate =
                new RunDirectory("c32", Path.of("c32"), ReportFixtures.report("llama", 32, second), second);
        Comparison comparison = Comparison.of(
                List.of(List.of(baseline), List.of(candidate)),
                new Comparison.Settings(200, 0.95, 1),
                FailIf.parse("mean_ttft:+5%"));
        assertThat(comparison.regressions())
                .as("concurrency 32 is slower to the first token")
                .isNotEmpty();

        Opened page = open(
                "compare-verdict.html",
                HtmlReport.forComparison(
                        List.of(
                                new LabeledRun("c8", baseline.report(), first),
                                new LabeledRun("c32", candidate.report(), second)),
                        ReportFiles.JSON.valueToTree(comparison)));

        page.assertClean();
        String drawn = page.drawn();
        assertThat(drawn)
                .contains(
                        ">Differences<",
                        "c32  vs  c8 (baseline)",
                        "REGRESSION (--fail-if mean_ttft:+5%)",
                        comparison.regressions().getFirst().replace("<", "&lt;").replace(">", "&gt;"),
                        "95% CI of the difference");
        // Every metric of the pair has its row, with the interval as the console writes it.
        Comparison.Difference ttft = comparison.pairs().getFirst().metrics().stream()
                .filter(d -> d.metric().equals("mean_ttft"))
                .findFirst()
                .orElseThrow();
        assertThat(drawn).contains("<td>mean_ttft</td>");
        assertThat(ttft.significant()).isTrue();
        assertThat(drawn.indexOf(">Differences<")).isLessThan(drawn.indexOf(">Notes<"));
    }

    /**
     * A real run's page: the built-in simulator under a closed loop, its report.html as the run
     * wrote it. It reads clean: no legend showing uPlot's placeholder values, the model and hardware
     * panels (the simulator has neither beyond its name) folded away, every row of the record panels
     * and of the summaries explained on hover, and each record panel as wide as its table.
     */
    @Test
    void aRealRunsPageReadsClean() throws Exception {
        RequiredTool.require(chromium != null, HeadlessChromium.MISSING);
        Path runDir = dir.resolve("run");
        try (SimServer sim = SimServer.start(SimConfig.load(null, Map.of()))) {
            RunConfig config = RunConfig.builder()
                    .url(sim.url())
                    .load(Load.closed(4))
                    .numRequests(40L)
                    .inputTokens("64")
                    .outputTokens("16")
                    .tokenizer("cl100k_base")
                    .seed(7)
                    .grace(java.time.Duration.ofSeconds(5))
                    .outputDir(runDir)
                    .ioThreads(2)
                    .build();
            new BenchmarkRun(config, sim.url(), null, "llmload run (test)", "test", r -> {}).execute();
        }
        Opened page = open("real-run.html", Files.readString(runDir.resolve(HtmlReport.FILE_NAME)));

        page.assertClean();
        JsonNode layout = page.check.get("layout");
        assertThat(layout.get("legendPlaceholders").asInt())
                .as("legend values showing --")
                .isZero();
        assertThat(page.dom).doesNotContain(">--<");
        assertThat(layout.get("panels"))
                .extracting(JsonNode::asText)
                .contains("Service", "Load", "Data", "Run")
                .doesNotContain("Model", "Hardware (server)");
        assertThat(layout.get("untitledRows")).as("rows without an explanation").isEmpty();
        assertThat(layout.get("trailingWhitePx").asDouble())
                .as("white space right of a record panel's table")
                .isLessThan(24);
        // No empty row in a record panel; the summaries' rows carry their definitions.
        assertThat(page.drawn()).doesNotContain("<td>–</td>");
        assertThat(page.drawn())
                .contains(
                        "title=\"time to first token: the first stream event carrying generated text, from the send\"")
                .contains(">Time to second token (ms)<");
    }

    private Opened open(String name, String html) throws IOException, InterruptedException {
        RequiredTool.require(chromium != null, HeadlessChromium.MISSING);
        Path file = dir.resolve(name);
        Files.writeString(file, html);
        return new Opened(chromium.dumpDom(file));
    }

    private static final class Opened {

        private static final Pattern SELF_CHECK =
                Pattern.compile("<pre id=\"llmload-selfcheck\"[^>]*>(.*?)</pre>", Pattern.DOTALL);

        final String dom;
        final JsonNode check;

        Opened(String dom) throws IOException {
            this.dom = dom;
            Matcher matcher = SELF_CHECK.matcher(dom);
            assertThat(matcher.find()).as("self-check element in %s", dom).isTrue();
            String json = matcher.group(1)
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&nbsp;", "\u00a0")
                    .replace("&amp;", "&");
            assertThat(json).as("the page wrote its self-check").isNotBlank();
            this.check = new ObjectMapper().readTree(json);
        }

        void assertClean() {
            assertThat(check.get("errors")).as("errors").isEmpty();
            assertThat(check.get("dialogs").asInt()).as("dialogs opened").isZero();
            // The only script elements are the page's own four: nothing injected became markup.
            assertThat(dom.split("<script", -1)).hasSize(5);
            assertThat(check.get("charts")).isNotEmpty();
            for (JsonNode chart : check.get("charts")) {
                assertThat(chart.get("points").asInt())
                        .as("values drawn in %s", chart)
                        .isPositive();
                assertThat(chart.get("painted").asInt())
                        .as("series pixels in %s", chart)
                        .isPositive();
                assertThat(chart.get("width").asInt()).as("width of %s", chart).isGreaterThan(0);
            }
        }

        /** The page as drawn, without its scripts' source. */
        String drawn() {
            return dom.replaceAll("(?s)<script[^>]*>.*?</script>", "");
        }

        /** Each series' label and how many of its values were drawn, in one chart. */
        Map<String, Integer> seriesPoints(String id) {
            Map<String, Integer> points = new java.util.LinkedHashMap<>();
            for (JsonNode chart : check.get("charts")) {
                if (chart.get("id").asText().equals(id)) {
                    chart.get("series")
                            .forEach(s -> points.put(
                                    s.get("label").asText(), s.get("points").asInt()));
                    return points;
                }
            }
            throw new AssertionError("no chart " + id);
        }

        Map<String, String> chartTitles() {
            Map<String, String> titles = new java.util.LinkedHashMap<>();
            check.get("charts")
                    .forEach(chart -> titles.put(
                            chart.get("id").asText(), chart.get("title").asText()));
            return titles;
        }

        List<String> chartIds() {
            List<String> ids = new ArrayList<>();
            check.get("charts").forEach(chart -> ids.add(chart.get("id").asText()));
            return ids;
        }
    }
}
