package dev.llmload.twin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.report.ReportFiles;
import dev.llmload.twin.fit.RequestTimeline;
import dev.llmload.twin.fit.RunInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads run directories (or a sweep's directory, whose runs are its subdirectories) into what the
 * fit needs: each succeeded streamed request's send, prompt length and token events from
 * {@code requests.jsonl}, and the server's KV cache use per second from {@code report.json}'s
 * telemetry when it was scraped. Called on the command's thread.
 */
public final class RunLoader {

    private RunLoader() {}

    /** Every run under {@code paths}, in the order given (a sweep's runs in name order). */
    public static List<RunInput> load(List<Path> paths) throws IOException {
        List<RunInput> runs = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isRegularFile(p.resolve(Journal.FILE_NAME))) {
                runs.add(loadRun(p));
            } else if (Files.isDirectory(p)) {
                List<Path> children;
                try (Stream<Path> list = Files.list(p)) {
                    children = list.filter(c -> Files.isRegularFile(c.resolve(Journal.FILE_NAME)))
                            .sorted()
                            .toList();
                }
                if (children.isEmpty()) {
                    throw new IllegalArgumentException(
                            p + " is neither a run directory (no requests.jsonl) nor a sweep's directory of runs");
                }
                for (Path c : children) {
                    runs.add(loadRun(c));
                }
            } else {
                throw new IllegalArgumentException(p + ": no such directory");
            }
        }
        return runs;
    }

    static RunInput loadRun(Path dir) throws IOException {
        List<RequestTimeline> timelines = new ArrayList<>();
        long[] origin = {Long.MAX_VALUE};
        JournalReader.forEach(dir.resolve(Journal.FILE_NAME), r -> {
            if (r.warmup()) {
                return;
            }
            origin[0] = Math.min(origin[0], r.timings().intendedSendNanos());
            RequestTimeline t = timeline(r);
            if (t != null) {
                timelines.add(t);
            }
        });
        JsonNode report = readReport(dir);
        return new RunInput(
                dir.toString(),
                timelines,
                origin[0] == Long.MAX_VALUE ? 0 : origin[0],
                kvUsage(report),
                scrapeIntervalNanos(report));
    }

    private static JsonNode readReport(Path dir) throws IOException {
        Path report = dir.resolve(ReportFiles.REPORT_JSON);
        return Files.isRegularFile(report) ? ReportFiles.JSON.readTree(report.toFile()) : null;
    }

    /** {@code config.telemetry.scrape_interval}; a second when absent or unreadable. */
    private static long scrapeIntervalNanos(JsonNode report) {
        JsonNode interval = report == null ? null : report.at("/config/telemetry/scrape_interval");
        try {
            return interval != null && interval.isTextual()
                    ? Duration.parse(interval.asText()).toNanos()
                    : 1_000_000_000L;
        } catch (java.time.format.DateTimeParseException e) {
            return 1_000_000_000L;
        }
    }

    /** The request as the fit sees it; null for a failed or unstreamed one, or one with no token. */
    static RequestTimeline timeline(RequestRecord r) {
        RequestTimings t = r.timings();
        if (!r.succeeded() || !r.streamed() || t.tokenEventNanos().length == 0 || r.inputTokens() <= 0) {
            return null;
        }
        return RequestTimeline.of(t.sentNanos(), r.inputTokens(), t.tokenEventNanos(), r.tokenEventCounts());
    }

    /** {@code telemetry.per_second[].kv_cache_usage} by second; empty when the run scraped no KV use. */
    private static List<Double> kvUsage(JsonNode report) {
        List<Double> usage = new ArrayList<>();
        if (report == null) {
            return usage;
        }
        JsonNode perSecond = report.at("/telemetry/per_second");
        boolean any = false;
        for (JsonNode row : perSecond) {
            int second = row.path("second").asInt(-1);
            JsonNode kv = row.get("kv_cache_usage");
            if (second < 0) {
                continue;
            }
            while (usage.size() <= second) {
                usage.add(null);
            }
            if (kv != null && kv.isNumber()) {
                usage.set(second, kv.asDouble());
                any = true;
            }
        }
        return any ? usage : List.of();
    }
}
