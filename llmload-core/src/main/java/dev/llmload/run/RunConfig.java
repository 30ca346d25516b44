package dev.llmload.run;

import dev.llmload.load.Timeouts;
import dev.llmload.protocol.ApiKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything that determines a run, resolved from flags and config; it is written into the report
 * so the run can be repeated. It never holds the API key.
 *
 * @param url           the server; null when the embedded simulator is the target
 * @param numRequests   requests to send (warm-up included); null when only {@code duration} bounds the run
 * @param duration      stop sending after this long; null for no time bound
 * @param inputTokens   a length distribution, e.g. {@code 512} or {@code uniform:256:768}
 * @param dataset       a JSONL or ShareGPT file instead of synthetic prompts; null for synthetic
 * @param grace         how long in-flight requests may finish after the run stops sending
 * @param ioThreads     event loop threads of the client
 */
public record RunConfig(
        String url,
        ApiKind api,
        String model,
        boolean stream,
        boolean ignoreEos,
        LoadSpec load,
        Long numRequests,
        Duration duration,
        int warmup,
        String inputTokens,
        String outputTokens,
        Path dataset,
        String tokenizer,
        long seed,
        Timeouts timeouts,
        Duration grace,
        Path outputDir,
        Map<String, String> metadata,
        List<String> notes,
        boolean insecure,
        int ioThreads) {

    public RunConfig {
        metadata = Map.copyOf(metadata);
        notes = List.copyOf(notes);
    }

    public RunConfig withUrl(String newUrl) {
        return new RunConfig(newUrl, api, model, stream, ignoreEos, load, numRequests, duration, warmup, inputTokens,
                outputTokens, dataset, tokenizer, seed, timeouts, grace, outputDir, metadata, notes, insecure, ioThreads);
    }

    public RunConfig withModel(String newModel) {
        return new RunConfig(url, api, newModel, stream, ignoreEos, load, numRequests, duration, warmup, inputTokens,
                outputTokens, dataset, tokenizer, seed, timeouts, grace, outputDir, metadata, notes, insecure, ioThreads);
    }

    public RunConfig withOutputDir(Path dir) {
        return new RunConfig(url, api, model, stream, ignoreEos, load, numRequests, duration, warmup, inputTokens,
                outputTokens, dataset, tokenizer, seed, timeouts, grace, dir, metadata, notes, insecure, ioThreads);
    }
}
