package dev.llmload.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.llmload.record.Journal;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.RequestTimings;
import dev.llmload.record.TokenSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes the run directories of the big-run benchmarks ({@code bench/big-report.sh},
 * {@code bench/merge-scale.sh}): a run of REQUESTS requests sent at 1,000 per second, split into
 * SEGMENTS segment directories as {@code --segment I/SEGMENTS} would split it (request k in
 * segment k mod SEGMENTS), each with a valid {@code report.json} and {@code requests.jsonl}. The
 * records are drawn from a fixed seed: TTFT 80–200 ms, 64–192 output tokens in stream events
 * 15–25 ms apart (one in eight carrying two tokens), one request in a hundred failing with a 503.
 * The report.json of each segment is TEMPLATE's (a real {@code llmload run --segment 0/1
 * --request-rate 1000} directory) with its segment index and count rewritten: {@code llmload
 * report} and {@code merge} recompute everything else from the journals.
 *
 * <pre>BenchJournals TEMPLATE_DIR OUT_DIR REQUESTS SEGMENTS</pre>
 *
 * Writes OUT_DIR/seg-000 … Not part of the product.
 */
public final class BenchJournals {

    private static final long MICROS = 1_000;
    private static final long MILLIS = 1_000_000;

    private BenchJournals() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: BenchJournals TEMPLATE_DIR OUT_DIR REQUESTS SEGMENTS");
            System.exit(2);
        }
        Path template = Path.of(args[0]);
        Path out = Path.of(args[1]);
        long requests = Long.parseLong(args[2]);
        int segments = Integer.parseInt(args[3]);
        ObjectMapper json = new ObjectMapper();
        JsonNode report = json.readTree(template.resolve("report.json").toFile());
        List<Journal> journals = new ArrayList<>(segments);
        for (int i = 0; i < segments; i++) {
            Path dir = out.resolve(String.format("seg-%03d", i));
            Files.createDirectories(dir);
            JsonNode copy = report.deepCopy();
            ObjectNode segment = (ObjectNode) copy.at("/run/segment");
            if (segment.isMissingNode()) {
                throw new IOException(template + " is not a segment's run directory (run it with --segment 0/1)");
            }
            segment.put("index", i).put("count", segments);
            ((ObjectNode) copy.get("run")).put("id", copy.at("/run/id").asText() + "-" + i);
            rewriteSegmentSpec(copy, i + "/" + segments);
            json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve("report.json").toFile(), copy);
            journals.add(Journal.create(dir.resolve(Journal.FILE_NAME)));
        }
        SplittableRandom random = new SplittableRandom(20261204);
        for (long k = 0; k < requests; k++) {
            journals.get((int) (k % segments)).append(record(k, segments, random));
        }
        for (Journal journal : journals) {
            journal.close();
        }
    }

    /** The configuration's own {@code segment} ("0/1" as given) becomes this segment's. */
    private static void rewriteSegmentSpec(JsonNode node, String spec) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().equals("segment") && field.getValue().isTextual()) {
                    field.setValue(TextNode.valueOf(spec));
                } else {
                    rewriteSegmentSpec(field.getValue(), spec);
                }
            }
        } else if (node.isArray()) {
            node.forEach(element -> rewriteSegmentSpec(element, spec));
        }
    }

    /** Request k of the whole run; every moment a whole microsecond, as the journal keeps them. */
    private static RequestRecord record(long k, int segments, SplittableRandom random) {
        long intended = k * MILLIS;
        long sent = intended + random.nextLong(20, 200) * MICROS;
        long firstByte = sent + random.nextLong(5_000, 20_000) * MICROS;
        String id = "seg" + (k % segments) + "-" + k;
        if (random.nextInt(100) == 0) {
            RequestTimings timings = new RequestTimings(intended, sent, firstByte, RequestTimings.NEVER,
                    RequestTimings.NEVER, firstByte, new long[0]);
            return new RequestRecord(k, id, false, timings, new int[0], 503,
                    Outcome.Failure.of(dev.llmload.record.FailureClass.HTTP_5XX, "HTTP 503: overloaded"), 512, true,
                    0, TokenSource.SERVER, null, true, null, null, null);
        }
        int outputTokens = random.nextInt(64, 193);
        long[] times = new long[outputTokens];
        int[] counts = new int[outputTokens];
        long at = sent + random.nextLong(80_000, 200_000) * MICROS;
        int events = 0;
        int tokens = 0;
        while (tokens < outputTokens) {
            int count = random.nextInt(8) == 0 && outputTokens - tokens > 1 ? 2 : 1;
            times[events] = at;
            counts[events] = count;
            events++;
            tokens += count;
            at += random.nextLong(15_000, 25_000) * MICROS;
        }
        long[] eventTimes = java.util.Arrays.copyOf(times, events);
        int[] eventCounts = java.util.Arrays.copyOf(counts, events);
        long end = eventTimes[events - 1] + 300 * MICROS;
        RequestTimings timings = new RequestTimings(intended, sent, firstByte, eventTimes[0], eventTimes[0], end,
                eventTimes);
        return new RequestRecord(k, id, false, timings, eventCounts, 200, Outcome.SUCCESS, 512, true, outputTokens,
                TokenSource.SERVER, "stop", true, null, null, null);
    }
}
