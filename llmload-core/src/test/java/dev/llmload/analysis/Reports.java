package dev.llmload.analysis;

import dev.llmload.client.Recordings;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.record.RequestRecord;
import dev.llmload.report.ClientHost;
import dev.llmload.report.RunReport;
import dev.llmload.stats.Statistics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A whole {@link RunReport} around hand-made records, as the run orchestration would build it. */
final class Reports {

    private Reports() {}

    static RunReport of(List<RequestRecord> records, Load load, Slo slo) {
        RunResults results = RunResults.compute(records, slo);
        RunConfig config = RunConfig.builder()
                .url("http://127.0.0.1:8000/v1")
                .model("llama-3-8b")
                .ignoreEos(false)
                .load(load)
                .numRequests(records.isEmpty() ? null : (long) records.size())
                .inputTokens("uniform:256:768")
                .outputTokens("128")
                .tokenizer(null)
                .seed(42)
                .outputDir(Path.of("runs/test"))
                .metadata(Map.of("gpu", "H100"))
                .ioThreads(2)
                .build();
        double[] input =
                records.stream().mapToDouble(RequestRecord::inputTokens).toArray();
        double[] output =
                records.stream().mapToDouble(RequestRecord::outputTokens).toArray();
        return new RunReport(
                RunReport.SCHEMA_VERSION,
                new RunReport.Tool("llmload", "0.1.0-SNAPSHOT"),
                new RunReport.Run(
                        "20250101-120000-c8",
                        "2025-01-01T12:00:00+01:00",
                        "2025-01-01T12:00:05+01:00",
                        "llmload run --concurrency 8",
                        42,
                        false,
                        new ClientHost("Test CPU", 2, 4.0, "Linux", "OpenJDK 21")),
                new RunReport.Model("llama-3-8b", "8B", "bf16", null, null),
                new RunReport.Service("http://127.0.0.1:8000/v1", "chat", "vllm", "0.11.0", null, true),
                new RunReport.Hardware(null, null, null, null, null),
                RunReport.Load.of(load, (long) records.size(), null, 0),
                new RunReport.Data(
                        "synthetic",
                        "sha256:abc",
                        new RunReport.TokenShape("uniform:256:768", Statistics.summarize(input)),
                        new RunReport.TokenShape("128", Statistics.summarize(output))),
                results,
                null,
                null,
                NoteDetector.detect(records, results, load),
                config,
                TimeSeries.of(records),
                null,
                Recordings.cleanCost(5),
                Saturation.of(records, load),
                SteadyState.of(records, slo));
    }
}
