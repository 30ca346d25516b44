package dev.llmload.cli;

import dev.llmload.cli.console.ConsoleSummary;
import dev.llmload.config.OptionTable;
import dev.llmload.config.RunConfig;
import dev.llmload.stats.Percentile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code vllm bench serve}'s spellings whose values llmload writes another way, so that a vLLM
 * command line runs unchanged (docs/coming-from.md). The spellings that only rename an option
 * ({@code --num-prompts}) are second names of llmload's own options; these translate their value
 * onto the native options in {@link #applyTo}, and refuse one they cannot mean the same way.
 * {@code --percentile-metrics} and {@code --metric-percentiles} choose what the console summary
 * prints ({@link #latencies}), not what the run records.
 */
public final class VllmOptions {

    /** The native option each of these sets: a config file or scenario does not set it again. */
    static final Map<String, String> NATIVE = Map.of(
            "--backend", "--api",
            "--endpoint", "--api",
            "--dataset-name", "--dataset-format",
            "--goodput", "--slo",
            "--save-result", "--export",
            "--num-warmups", "--warmup",
            "--ignore-eos", "--no-ignore-eos");

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            description = "vLLM's spelling: openai or vllm is --api completions, openai-chat is --api chat.")
    String backend;

    @Option(
            names = "--endpoint",
            paramLabel = "PATH",
            description = "vLLM's spelling: /v1/completions is --api completions, /v1/chat/completions is --api chat.")
    String endpoint;

    @Option(
            names = "--dataset-name",
            paramLabel = "NAME",
            description = "vLLM's spelling: random is the synthetic prompts (the default); sharegpt with "
                    + "--dataset-path FILE is --dataset FILE --dataset-format sharegpt.")
    String datasetName;

    @Option(
            names = "--goodput",
            paramLabel = "KEY:MS",
            arity = "1..*",
            description = "vLLM's spelling of --slo: e.g. --goodput ttft:500 tpot:50 e2el:3000.")
    List<String> goodput;

    @Option(names = "--save-result", description = "vLLM's spelling of --export vllm.")
    boolean saveResult;

    @Option(
            names = "--num-warmups",
            paramLabel = "N",
            description = "vLLM's spelling: N warm-up requests before the counted ones (--warmup N, and N more "
                    + "requests than --num-requests).")
    Integer numWarmups;

    @Option(
            names = "--ignore-eos",
            description = "vLLM's spelling of llmload's default: ignore_eos is sent unless --no-ignore-eos.")
    boolean ignoreEos;

    @Option(
            names = "--percentile-metrics",
            paramLabel = "METRICS",
            split = ",",
            description =
                    "As vLLM's: the latencies whose percentiles the summary prints, of ttft, tpot, itl, ttst "
                            + "(time to second token), e2el and client_queue_time, e.g. ttft,tpot,itl,e2el. Default: all. report.json keeps them all.")
    List<String> percentileMetrics;

    @Option(
            names = "--metric-percentiles",
            paramLabel = "PERCENTILES",
            split = ",",
            description = "As vLLM's: the percentiles the summary prints, of 50, 90, 95, 99 and 99.9, e.g. 50,90,99. "
                    + "Default: 50,90,95,99. report.json keeps them all.")
    List<String> metricPercentiles;

    /**
     * Puts these spellings' values onto a builder that {@code options} filled.
     *
     * @param slo the run's own {@code --slo}, which {@code --goodput} may not contradict
     * @throws UsageException for a value llmload cannot mean the way vLLM does, or a clash with a native option
     */
    void applyTo(RunConfig.Builder builder, RunOptions options, String slo) {
        String api = api();
        if (api != null) {
            String given = options.value(OptionTable.API);
            if (!given.equalsIgnoreCase("auto") && !given.equalsIgnoreCase(api)) {
                throw new UsageException(
                        "--api " + given + " contradicts vLLM's --backend/--endpoint, which mean " + "--api " + api);
            }
            builder.api(api);
        }
        if (datasetName != null) {
            switch (datasetName.toLowerCase(Locale.ROOT)) {
                case "random" -> {
                    if (options.value(OptionTable.DATASET) != null) {
                        throw new UsageException("--dataset-name random makes synthetic prompts; a --dataset-path "
                                + "needs --dataset-name sharegpt");
                    }
                }
                case "sharegpt" -> {
                    if (options.value(OptionTable.DATASET) == null) {
                        throw new UsageException("--dataset-name sharegpt needs --dataset-path FILE");
                    }
                    builder.datasetFormat("sharegpt");
                }
                default ->
                    throw new UsageException("llmload reads vLLM's --dataset-name random and sharegpt; for "
                            + datasetName + " give --dataset FILE (JSONL or ShareGPT) or --trace FILE");
            }
        }
        if (goodput != null) {
            if (slo != null) {
                throw new UsageException("give --slo or vLLM's --goodput, not both");
            }
            builder.slo(slo());
        }
        if (saveResult && options.value(OptionTable.EXPORT).stream().noneMatch("vllm"::equalsIgnoreCase)) {
            List<String> exports = new ArrayList<>(options.value(OptionTable.EXPORT));
            exports.add("vllm");
            builder.exports(exports);
        }
        if (numWarmups != null) {
            if (numWarmups < 0) {
                throw new UsageException("--num-warmups must be at least 0, got " + numWarmups);
            }
            if (!options.value(OptionTable.WARMUP).equals("0")) {
                throw new UsageException("give --warmup or vLLM's --num-warmups, not both");
            }
            builder.warmup(String.valueOf(numWarmups));
            if (options.value(OptionTable.NUM_REQUESTS) != null) {
                builder.numRequests(options.value(OptionTable.NUM_REQUESTS) + numWarmups);
            } else if (options.value(OptionTable.DURATION) == null) {
                builder.numRequests(RunConfig.DEFAULT_NUM_REQUESTS + numWarmups);
            }
        }
        if (ignoreEos && options.value(OptionTable.NO_IGNORE_EOS)) {
            throw new UsageException("give --ignore-eos or --no-ignore-eos, not both");
        }
    }

    /**
     * What the console summary prints of the latencies: {@code --percentile-metrics} and
     * {@code --metric-percentiles}, or the default. Checked before the run, so a mistake costs no run.
     *
     * @throws UsageException for a metric or percentile llmload does not keep
     */
    ConsoleSummary.Latencies latencies() {
        ConsoleSummary.Latencies all = ConsoleSummary.Latencies.DEFAULT;
        Set<ConsoleSummary.Latencies.Latency> metrics = all.metrics();
        if (percentileMetrics != null) {
            metrics = EnumSet.noneOf(ConsoleSummary.Latencies.Latency.class);
            for (String name : percentileMetrics) {
                metrics.add(
                        switch (name.strip().toLowerCase(Locale.ROOT)) {
                            case "ttft" -> ConsoleSummary.Latencies.Latency.TTFT;
                            case "tpot" -> ConsoleSummary.Latencies.Latency.TPOT;
                            case "itl" -> ConsoleSummary.Latencies.Latency.ITL;
                            case "ttst" -> ConsoleSummary.Latencies.Latency.TTST;
                            case "e2el", "e2e" -> ConsoleSummary.Latencies.Latency.E2E;
                            case "client_queue_time", "queue" -> ConsoleSummary.Latencies.Latency.QUEUE;
                            default ->
                                throw new UsageException(
                                        "--percentile-metrics: llmload prints ttft, tpot, itl, ttst, e2el "
                                                + "and client_queue_time; '" + name.strip() + "' is not one of them");
                        });
            }
        }
        List<Percentile> percentiles = all.percentiles();
        if (metricPercentiles != null) {
            List<Percentile> chosen = new ArrayList<>();
            for (String text : metricPercentiles) {
                Percentile percentile = percentile(text.strip());
                if (!chosen.contains(percentile)) {
                    chosen.add(percentile);
                }
            }
            chosen.sort(Comparator.comparingDouble(Percentile::value));
            percentiles = chosen;
        }
        return new ConsoleSummary.Latencies(metrics, percentiles);
    }

    /** One of the percentiles every summary keeps, written as a number (99, 99.9, 99.0). */
    private static Percentile percentile(String text) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        for (Percentile percentile : Percentile.values()) {
            if (percentile.value() == value) {
                return percentile;
            }
        }
        throw new UsageException("--metric-percentiles: llmload keeps the percentiles 50, 90, 95, 99 and 99.9; '" + text
                + "' is not one of them");
    }

    /** The API that {@code --backend} and {@code --endpoint} name, or null when neither is given. */
    private String api() {
        String byBackend = backend == null
                ? null
                : switch (backend.toLowerCase(Locale.ROOT)) {
                    case "openai", "vllm" -> "completions";
                    case "openai-chat" -> "chat";
                    default ->
                        throw new UsageException("llmload reads vLLM's --backend openai, vllm and openai-chat; for "
                                + backend + " choose --api (llmload run --help lists them)");
                };
        String byEndpoint = endpoint == null
                ? null
                : switch (endpoint.replaceAll("/+$", "")) {
                    case "/v1/completions" -> "completions";
                    case "/v1/chat/completions" -> "chat";
                    default ->
                        throw new UsageException(
                                "llmload reads vLLM's --endpoint /v1/completions and " + "/v1/chat/completions; for "
                                        + endpoint + " choose --api, and put a path prefix in --url");
                };
        if (byBackend != null && byEndpoint != null && !byBackend.equals(byEndpoint)) {
            throw new UsageException("--backend " + backend + " and --endpoint " + endpoint + " name different APIs");
        }
        return byBackend != null ? byBackend : byEndpoint;
    }

    /** {@code --goodput}'s {@code ttft:500 tpot:50 e2el:3000} as {@code --slo}'s {@code ttft:500,tpot:50,e2e:3000}. */
    private String slo() {
        List<String> limits = new ArrayList<>();
        for (String item : goodput) {
            String limit = item.trim();
            limits.add(limit.regionMatches(true, 0, "e2el:", 0, 5) ? "e2e:" + limit.substring(5) : limit);
        }
        return String.join(",", limits);
    }
}
