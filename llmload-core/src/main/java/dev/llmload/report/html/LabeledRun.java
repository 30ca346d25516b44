package dev.llmload.report.html;

import dev.llmload.record.RequestRecord;
import dev.llmload.report.RunReport;
import java.util.List;
import java.util.Objects;

/**
 * One run of a sweep or comparison page, under the label the page shows for it.
 *
 * @param records the run's requests, for exact spectra in a comparison; empty when only the
 *                report is at hand, and the spectra are then drawn from its summaries' percentiles
 */
public record LabeledRun(String label, RunReport report, List<RequestRecord> records) {

    public LabeledRun {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(report, "report");
        records = records == null ? List.of() : List.copyOf(records);
    }

    public LabeledRun(String label, RunReport report) {
        this(label, report, List.of());
    }
}
