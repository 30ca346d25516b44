package dev.llmload.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ReportFixtures;
import dev.llmload.report.RunReport;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {

    private static final String DATA_OPEN = "<script type=\"application/json\" id=\"llmload-data\">";

    private final List<RequestRecord> records = ReportFixtures.records(200, 16, 1);

    @Test
    void embeddedDataCannotLeaveItsScriptElement() throws Exception {
        String page = HtmlReport.forRun(ReportFixtures.report(ReportFixtures.HOSTILE, 16, records), records);

        assertThat(page).doesNotContain(ReportFixtures.HOSTILE).doesNotContain("<script>alert");
        // The page's own four script elements, and no more ends of one.
        assertThat(page.split("</script", -1)).hasSize(5);
        JsonNode data = data(page);
        assertThat(data.at("/report/model/name").asText()).isEqualTo(ReportFixtures.HOSTILE);
        assertThat(data.at("/report/notes/1/message").asText())
                .isEqualTo("baseline <b>before</b> the scheduler change");
    }

    @Test
    void escapingKeepsTheJsonMeaning() throws Exception {
        String json = new ObjectMapper().writeValueAsString(Map.of("k", "a</script><!-- & >\u2028"));

        String escaped = PageTemplate.escapeForScript(json);

        assertThat(escaped)
                .doesNotContain("<")
                .doesNotContain(">")
                .doesNotContain("&")
                .doesNotContain("\u2028");
        assertThat(new ObjectMapper().readTree(escaped).get("k").asText()).isEqualTo("a</script><!-- & >\u2028");
    }

    @Test
    void placeholdersInTheDataAreNotFilled() throws Exception {
        RunReport report = ReportFixtures.report("@@UPLOT_JS@@ @@DATA@@", 16, records);

        String page = HtmlReport.forRun(report, records);

        assertThat(data(page).at("/report/model/name").asText()).isEqualTo("@@UPLOT_JS@@ @@DATA@@");
        assertThat(page).doesNotContain("@@REPORT_JS@@").doesNotContain("@@UPLOT_CSS@@");
    }

    @Test
    void pagesLoadNothingFromTheNetwork() {
        Pattern remote = Pattern.compile(
                "(?i)[\\s\"'](src|href|action|poster|data)\\s*=\\s*[\"']?\\s*(https?:)?//|url\\(\\s*[\"']?\\s*(https?:)?//|@import");
        assertThat(remote.matcher("<script src=\"https://cdn.example/uPlot.js\">")
                        .find())
                .as("the pattern works")
                .isTrue();
        assertThat(remote.matcher("<link href='//fonts.example/f.css'>").find())
                .as("the pattern works")
                .isTrue();
        for (String page : List.of(
                HtmlReport.forRun(ReportFixtures.report("m", 16, records), records, ReportFixtures.telemetry(records)),
                HtmlReport.forSweep(ReportFixtures.sweep(), SweepMarkers.NONE),
                HtmlReport.forComparison(ReportFixtures.sweep()))) {
            assertThat(remote.matcher(page).find()).as("a remote reference").isFalse();
            assertThat(page).contains("Content-Security-Policy\" content=\"default-src 'none';");
        }
    }

    @Test
    void uPlotAndItsLicenceAreInlined() {
        String page = HtmlReport.forSweep(ReportFixtures.sweep(), SweepMarkers.NONE);

        int comment = page.indexOf("<!--");
        assertThat(page.substring(comment, page.indexOf("-->", comment)))
                .contains("uPlot")
                .contains("The MIT License")
                .contains("Copyright (c) 2022 Leon Sorokin")
                .contains("Permission is hereby granted, free of charge");
        assertThat(page).contains("var uPlot=function()").contains(".uplot {");
    }

    @Test
    void runDataHoldsRequestColumnsSpectraAndTelemetryWithGapsAsNull() throws Exception {
        String page =
                HtmlReport.forRun(ReportFixtures.report("m", 16, records), records, ReportFixtures.telemetry(records));

        JsonNode data = data(page);
        assertThat(data.get("kind").asText()).isEqualTo("run");
        assertThat(data.at("/requests/sent_s")).hasSize(records.size());
        assertThat(data.at("/requests/ttft_ms")).hasSize(records.size());
        assertThat(data.at("/spectra/ttft_ms/values")).hasSizeGreaterThan(40);
        assertThat(data.at("/spectra/itl_ms/exact").asBoolean()).isTrue();
        assertThat(data.at("/telemetry/gpu_util/2").isNull()).isTrue();
        assertThat(data.at("/telemetry/gpu_util/3").asDouble()).isEqualTo(91.0);
    }

    @Test
    void comparisonWithoutRecordsDrawsTheSummariesPercentiles() throws Exception {
        RunReport report = ReportFixtures.report("m", 16, records);

        JsonNode spectrum = data(HtmlReport.forComparison(List.of(new LabeledRun("a", report))))
                .at("/runs/0/spectra/ttft_ms");

        assertThat(spectrum.get("exact").asBoolean()).isFalse();
        assertThat(spectrum.get("percentiles"))
                .extracting(JsonNode::asDouble)
                .containsExactly(0.0, 50.0, 90.0, 95.0, 99.0, 99.9);
        assertThat(spectrum.at("/values/4").asDouble())
                .isEqualTo(report.results().ttftMs().p99());
    }

    private static JsonNode data(String page) throws Exception {
        int start = page.indexOf(DATA_OPEN) + DATA_OPEN.length();
        return new ObjectMapper().readTree(page.substring(start, page.indexOf("</script>", start)));
    }
}
