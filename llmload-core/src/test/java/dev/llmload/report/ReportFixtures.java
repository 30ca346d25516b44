package dev.llmload.report;

import dev.llmload.analysis.Saturation;
import dev.llmload.analysis.SteadyState;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.client.Recordings;
import dev.llmload.config.Load;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.RunResults;
import dev.llmload.note.Note;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TimeoutKind;
import dev.llmload.record.TokenSource;
import dev.llmload.report.html.LabeledRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Hand-made runs with realistic shapes: a closed loop whose TTFT grows with the prompt and the
 * batch, 128 output tokens streamed at a steady pace with jitter, and a few failures.
 */
public final class ReportFixtures {

    public static final String HOSTILE = "</script><script>alert(1)</script>";

    private ReportFixtures() {}

    /** A finished run of {@code count} requests (plus 10 warm-up) at {@code concurrency}. */
    public static List<RequestRecord> records(int count, int concurrency, long seed) {
        Random random = new Random(seed);
        List<RequestRecord> records = new ArrayList<>();
        long[] slotFree = new long[concurrency];
        double decodeMs = 9 + concurrency * 0.35;
        for (int i = 0; i < count + 10; i++) {
            int slot = 0;
            for (int s = 1; s < concurrency; s++) {
                if (slotFree[s] < slotFree[slot]) {
                    slot = s;
                }
            }
            long sent = slotFree[slot] + 200_000;
            int input = 256 + random.nextInt(513);
            double ttftMs = 40
                    + input * 0.12
                    + concurrency * 3
                    + Math.abs(random.nextGaussian()) * 35
                    + (random.nextInt(50) == 0 ? 250 : 0);
            long firstToken = sent + ms(ttftMs);
            boolean failed = i > 20 && i % 67 == 0;
            int tokens = failed ? 0 : 128;
            long[] events = new long[tokens];
            int[] counts = new int[tokens];
            long t = firstToken;
            for (int k = 0; k < tokens; k++) {
                events[k] = t;
                counts[k] = 1;
                t += ms(decodeMs * (0.8 + 0.4 * random.nextDouble()) + (random.nextInt(400) == 0 ? 60 : 0));
            }
            long end = failed ? sent + ms(30 + random.nextInt(40)) : events[tokens - 1] + ms(1);
            Outcome outcome = !failed
                    ? Outcome.SUCCESS
                    : i % 2 == 0
                            ? Outcome.Failure.of(FailureClass.HTTP_5XX, "HTTP 503: <html>Service Unavailable</html>")
                            : Outcome.Failure.timeout(TimeoutKind.FIRST_TOKEN, "no token within 60 s & gave up");
            RequestTimings timings = new RequestTimings(
                    slotFree[slot],
                    sent,
                    failed ? -1 : sent + ms(ttftMs * 0.9),
                    failed ? -1 : firstToken,
                    failed ? -1 : firstToken,
                    end,
                    events);
            records.add(new RequestRecord(
                    i,
                    "req-" + i,
                    i < 10,
                    timings,
                    counts,
                    failed && i % 2 == 0 ? 503 : 200,
                    outcome,
                    input,
                    true,
                    tokens,
                    TokenSource.SERVER,
                    failed ? null : "length",
                    true,
                    null,
                    null,
                    null));
            slotFree[slot] = end;
        }
        records.sort((a, b) -> Long.compare(a.timings().endNanos(), b.timings().endNanos()));
        return records;
    }

    public static RunReport report(String modelName, int concurrency, List<RequestRecord> records) {
        RunResults results = RunResults.compute(records);
        Map<String, String> metadata = new HashMap<>();
        metadata.put("team", "inference <platform> & co");
        metadata.put("ticket", "PERF-1234");
        RunConfig config = RunConfig.builder()
                .url("http://gpu-box-7:8000/v1")
                .model(modelName)
                .concurrency(concurrency)
                .numRequests((long) records.size())
                .warmup("10")
                .inputTokens("uniform:256:768")
                .outputTokens("128")
                .tokenizer("cl100k_base")
                .seed(42)
                .outputDir(Path.of("results"))
                .metadata(metadata)
                .notes(List.of("baseline before the scheduler change"))
                .ioThreads(2)
                .build();
        return new RunReport(
                RunReport.SCHEMA_VERSION,
                new RunReport.Tool("llmload", "0.1.0-SNAPSHOT"),
                new RunReport.Run(
                        "2025-06-02T10-15-00-c" + concurrency,
                        "2025-06-02T10:15:00Z",
                        "2025-06-02T10:16:12Z",
                        "llmload run --url http://gpu-box-7:8000/v1 --concurrency " + concurrency,
                        42,
                        false,
                        new ClientHost(
                                "AMD EPYC 7763 64-Core Processor", 16, 62.8, "Linux 6.8 amd64", "OpenJDK 21.0.7")),
                new RunReport.Model(modelName, "8B", "bf16", null, 8192),
                new RunReport.Service(
                        "http://gpu-box-7:8000/v1",
                        "chat",
                        "vllm",
                        "0.9.1",
                        "--max-num-seqs 256 --enable-prefix-caching",
                        true),
                new RunReport.Hardware("NVIDIA H100 80GB HBM3", 1, 80.0, null, null),
                RunReport.Load.of(Load.closed(concurrency), (long) records.size(), null, 10),
                new RunReport.Data(
                        "synthetic",
                        "sha256:9f2c51d0",
                        new RunReport.TokenShape("uniform:256:768", results.inputTokens()),
                        new RunReport.TokenShape("128", results.outputTokens())),
                results,
                null,
                null,
                List.of(
                        new Note("timeouts", "2 requests hit the first-token timeout"),
                        new Note("user", "baseline <b>before</b> the scheduler change")),
                config,
                TimeSeries.of(records),
                null,
                Recordings.cleanCost(
                        Math.max(1, TimeSeries.of(records).seconds().size())),
                Saturation.of(records, Load.closed(concurrency)),
                SteadyState.of(records, null));
    }

    /** Per-second server series over the run: KV cache use (0..1), requests waiting, GPU util (%). */
    public static Map<String, double[]> telemetry(List<RequestRecord> records) {
        int seconds = (int) Math.ceil(
                records.stream().mapToLong(r -> r.timings().endNanos()).max().orElse(0) / 1e9);
        double[] kv = new double[seconds];
        double[] waiting = new double[seconds];
        double[] gpu = new double[seconds];
        for (int s = 0; s < seconds; s++) {
            kv[s] = Math.min(0.97, 0.15 + 0.05 * s);
            waiting[s] = s < 3 ? 0 : (s * 7) % 5;
            gpu[s] = s == 2 ? Double.NaN : 88 + (s % 4);
        }
        Map<String, double[]> series = new LinkedHashMap<>();
        // The names timeseries.csv and the page give the server's signals (RunFiles.telemetryColumns in report.write).
        series.put("kv_cache_usage", kv);
        series.put("server_requests_waiting", waiting);
        series.put("gpu_util", gpu);
        return series;
    }

    /** A sweep over concurrency 1..64: each run's report. */
    public static List<LabeledRun> sweep() {
        List<LabeledRun> runs = new ArrayList<>();
        for (int concurrency : new int[] {1, 2, 4, 8, 16, 32, 64}) {
            List<RequestRecord> records = records(120, concurrency, concurrency);
            runs.add(new LabeledRun(
                    "c=" + concurrency, report("meta-llama/Llama-3.1-8B-Instruct", concurrency, records)));
        }
        return runs;
    }

    private static long ms(double millis) {
        return (long) (millis * 1_000_000);
    }
}
