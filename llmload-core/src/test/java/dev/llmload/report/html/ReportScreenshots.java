package dev.llmload.report.html;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.llmload.compare.Comparison;
import dev.llmload.compare.FailIf;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ReportFiles;
import dev.llmload.report.ReportFixtures;
import dev.llmload.report.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Regenerates {@code docs/screenshots/*.png} from the hand-made runs. Runs only when asked:
 * {@code ./mvnw -pl llmload-core -am verify -Dtest=ReportScreenshots -Dsurefire.failIfNoSpecifiedTests=false
 * -Dllmload.screenshots=../docs/screenshots} (the path is relative to {@code llmload-core}).
 */
@EnabledIfSystemProperty(named = "llmload.screenshots", matches = ".+")
class ReportScreenshots {

    @Test
    void writeScreenshots() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find().orElse(null);
        assumeTrue(chromium != null, HeadlessChromium.MISSING);
        Path out = Path.of(System.getProperty("llmload.screenshots"));
        Files.createDirectories(out);

        List<RequestRecord> records = ReportFixtures.records(200, 16, 1);
        shoot(
                chromium,
                out,
                "run-report",
                HtmlReport.forRun(
                        ReportFixtures.report("meta-llama/Llama-3.1-8B-Instruct", 16, records),
                        records,
                        ReportFixtures.telemetry(records)));
        shoot(
                chromium,
                out,
                "sweep-report",
                HtmlReport.forSweep(
                        ReportFixtures.sweep(),
                        new SweepMarkers(
                                Map.of("ttft", 400.0, "tpot", 25.0), 6.521, 16.0, "concurrency", 8.5, Map.of())));
        List<RequestRecord> baseline = ReportFixtures.records(200, 8, 3);
        List<RequestRecord> candidate = ReportFixtures.records(200, 32, 4);
        RunDirectory first = new RunDirectory(
                "concurrency 8",
                Path.of("c8"),
                ReportFixtures.report("meta-llama/Llama-3.1-8B-Instruct", 8, baseline),
                baseline);
        RunDirectory second = new RunDirectory(
                "concurrency 32",
                Path.of("c32"),
                ReportFixtures.report("meta-llama/Llama-3.1-8B-Instruct", 32, candidate),
                candidate);
        Comparison comparison = Comparison.of(
                List.of(List.of(first), List.of(second)),
                new Comparison.Settings(1000, 0.95, 1),
                FailIf.parse("p99_ttft:+10%"));
        shoot(
                chromium,
                out,
                "comparison-report",
                HtmlReport.forComparison(
                        List.of(
                                new LabeledRun(first.label(), first.report(), baseline),
                                new LabeledRun(second.label(), second.report(), candidate)),
                        ReportFiles.JSON.valueToTree(comparison)));
    }

    private static void shoot(HeadlessChromium chromium, Path out, String name, String html) throws Exception {
        Path page = Files.createTempFile(name, ".html");
        try {
            Files.writeString(page, html);
            chromium.screenshot(page, out.resolve(name + ".png"));
        } finally {
            Files.deleteIfExists(page);
        }
    }
}
