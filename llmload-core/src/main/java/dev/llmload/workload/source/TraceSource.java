package dev.llmload.workload.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * Replays a request trace in the Mooncake style: per request an arrival {@code timestamp} in
 * milliseconds, {@code input_length} and {@code output_length} in tokens, and optionally
 * {@code hash_ids}, each standing for one block of {@code blockSize} prompt tokens. Equal hash ids
 * give byte-identical blocks, so prefixes shared in the original traffic are shared again and a
 * server's prefix cache sees the trace's reuse. The prompt is the blocks in order, the last one
 * cut to fit {@code input_length}; tokens beyond the blocks (when {@code input_length} exceeds
 * {@code hash_ids × blockSize}) are unique to the request, and blocks beyond {@code input_length}
 * are not used. Prompt text is synthetic (see {@link SyntheticPrompts}) and exactly
 * {@code input_length} tokens.
 *
 * <p>Two file formats, chosen by the extension: {@code .csv} with a header naming the columns
 * ({@code hash_ids} as integers separated by spaces or semicolons, or a quoted
 * {@code "[1,2,3]"}), anything else JSON Lines ({@code {"timestamp": 0, "input_length": 655,
 * "output_length": 52, "hash_ids": [46, 47]}}). Timestamps must not decrease.
 *
 * <p>The constructor reads the whole file once, checking every row and keeping only its
 * timestamp, so a bad row fails construction before any load is sent and {@link #sendOffsetsNanos}
 * is ready for the schedule; requests are then made lazily by a second, streaming pass.
 */
public final class TraceSource implements RequestSource {

    /** Mooncake's block size. */
    public static final int DEFAULT_BLOCK_SIZE = 512;

    private final Path file;
    private final SyntheticPrompts prompts;
    private final int blockSize;
    private final long seed;
    private final boolean csv;
    private final long[] offsetsNanos;
    private final String sha256;
    private final SplittableRandom master;
    private BufferedReader reader;
    private Columns columns;
    private long lineNumber;
    private int index;
    private boolean finished;

    /**
     * Reads and checks the trace.
     *
     * @throws DatasetException at the first bad row, or when the trace is empty
     */
    public TraceSource(Path file, SyntheticPrompts prompts, int blockSize, long seed) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size " + blockSize + " must be at least 1");
        }
        this.file = file;
        this.prompts = prompts;
        this.blockSize = blockSize;
        this.seed = seed;
        this.csv = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv");
        this.master = new SplittableRandom(seed);
        Offsets offsets = new Offsets(file, csv);
        this.sha256 = HashedLines.read(file, offsets::add);
        if (offsets.rows == 0) {
            throw DatasetException.in(file, "empty trace");
        }
        this.offsetsNanos = Arrays.copyOf(offsets.nanos, offsets.rows);
    }

    /** The first pass: each row checked, its timestamp kept as an offset from the first row's. */
    private static final class Offsets {
        private final Path file;
        private final boolean csv;
        private Columns header;
        private long[] nanos = new long[1024];
        private int rows;
        private long firstNanos;
        private long previousNanos = Long.MIN_VALUE;

        Offsets(Path file, boolean csv) {
            this.file = file;
            this.csv = csv;
        }

        void add(long number, String line) {
            if (csv && header == null) {
                header = Columns.of(file, number, line);
                return;
            }
            Row row = csv ? header.parse(file, number, line) : parseJson(file, number, line);
            if (row.timestampNanos() < previousNanos) {
                throw DatasetException.at(file, number, "timestamp goes backwards");
            }
            if (rows == 0) {
                firstNanos = row.timestampNanos();
            }
            previousNanos = row.timestampNanos();
            if (rows == nanos.length) {
                nanos = Arrays.copyOf(nanos, rows * 2);
            }
            nanos[rows++] = row.timestampNanos() - firstNanos;
        }
    }

    /** Intended send time of request i, in nanoseconds after the first request's; a new array each call. */
    public long[] sendOffsetsNanos() {
        return offsetsNanos.clone();
    }

    /** The number of requests in the trace. */
    public int size() {
        return offsetsNanos.length;
    }

    @Override
    public boolean hasNext() {
        return !finished && index < offsetsNanos.length;
    }

    @Override
    public RequestSpec next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        try {
            if (reader == null) {
                reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            }
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                if (csv && columns == null) {
                    columns = Columns.of(file, lineNumber, line);
                    continue;
                }
                Row row = csv ? columns.parse(file, lineNumber, line) : parseJson(file, lineNumber, line);
                RequestSpec spec = new RequestSpec(
                        index++, List.of(ChatMessage.user(prompt(row))), row.inputLength(), row.outputLength());
                if (index == offsetsNanos.length) {
                    close();
                }
                return spec;
            }
        } catch (IOException e) {
            close();
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
        close();
        throw DatasetException.in(file, "changed while being read");
    }

    @Override
    public String describe() {
        return "trace " + file + " block=" + blockSize + " tokenizer="
                + prompts.tokenizer().name() + " seed=" + seed;
    }

    @Override
    public String contentHash() {
        return sha256;
    }

    @Override
    public void close() {
        finished = true;
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                // only read from; nothing to lose
            }
            reader = null;
        }
    }

    private String prompt(Row row) {
        SplittableRandom own = master.split();
        StringBuilder text = new StringBuilder(row.inputLength() * 8);
        int remaining = row.inputLength();
        for (int i = 0; i < row.hashIds().length && remaining > 0; i++) {
            int words = Math.min(blockSize, remaining);
            prompts.appendWords(text, words, blockRandom(row.hashIds()[i]));
            remaining -= words;
        }
        prompts.appendWords(text, remaining, own);
        prompts.complete(text, row.inputLength(), 0, own);
        return text.toString();
    }

    /** The generator of a block: a function of the seed and the hash id alone. */
    private SplittableRandom blockRandom(long hashId) {
        return new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (hashId + 1)));
    }

    private record Row(long timestampNanos, int inputLength, int outputLength, long[] hashIds) {}

    private static Row parseJson(Path file, long line, String text) {
        JsonNode node = JsonLine.object(file, line, text);
        JsonNode hashes = node.get("hash_ids");
        long[] hashIds = new long[0];
        if (hashes != null && !hashes.isNull()) {
            if (!hashes.isArray()) {
                throw DatasetException.at(file, line, "\"hash_ids\" must be an array of whole numbers");
            }
            hashIds = new long[hashes.size()];
            for (int i = 0; i < hashIds.length; i++) {
                if (!hashes.get(i).isIntegralNumber() || hashes.get(i).asLong() < 0) {
                    throw DatasetException.at(file, line, "\"hash_ids\" must be an array of whole numbers ≥ 0");
                }
                hashIds[i] = hashes.get(i).asLong();
            }
        }
        return new Row(
                timestamp(file, line, text(node, "timestamp", file, line)),
                length(file, line, "input_length", text(node, "input_length", file, line)),
                length(file, line, "output_length", text(node, "output_length", file, line)),
                hashIds);
    }

    private static String text(JsonNode node, String field, Path file, long line) {
        JsonNode value = node.get(field);
        if (value == null || !value.isNumber()) {
            throw DatasetException.at(file, line, "needs a number \"" + field + "\"");
        }
        return value.asText();
    }

    private static long timestamp(Path file, long line, String text) {
        try {
            double millis = Double.parseDouble(text.strip());
            if (millis >= 0 && Double.isFinite(millis)) {
                return Math.round(millis * 1_000_000);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw DatasetException.at(file, line, "timestamp '" + text.strip() + "' must be milliseconds ≥ 0");
    }

    private static int length(Path file, long line, String field, String text) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw DatasetException.at(file, line, field + " '" + text.strip() + "' must be a whole number ≥ 1");
    }

    /** Column positions of a CSV trace, from its header. */
    private record Columns(int timestamp, int input, int output, int hashIds, int count) {

        static Columns of(Path file, long line, String header) {
            List<String> names = split(file, line, header).stream()
                    .map(name -> name.strip().toLowerCase(Locale.ROOT))
                    .toList();
            for (String required : List.of("timestamp", "input_length", "output_length")) {
                if (!names.contains(required)) {
                    throw DatasetException.at(file, line, "header has no column \"" + required + "\"");
                }
            }
            return new Columns(
                    names.indexOf("timestamp"),
                    names.indexOf("input_length"),
                    names.indexOf("output_length"),
                    names.indexOf("hash_ids"),
                    names.size());
        }

        Row parse(Path file, long line, String text) {
            List<String> fields = split(file, line, text);
            if (fields.size() != count) {
                throw DatasetException.at(file, line, "expected " + count + " fields, found " + fields.size());
            }
            long[] hashes = new long[0];
            if (hashIds >= 0) {
                String list = fields.get(hashIds).strip().replace("[", "").replace("]", "");
                String[] items = list.isEmpty() ? new String[0] : list.split("[\\s;,]+");
                hashes = new long[items.length];
                for (int i = 0; i < items.length; i++) {
                    try {
                        hashes[i] = Long.parseLong(items[i]);
                    } catch (NumberFormatException e) {
                        hashes[i] = -1;
                    }
                    if (hashes[i] < 0) {
                        throw DatasetException.at(file, line, "hash id '" + items[i] + "' is not a whole number ≥ 0");
                    }
                }
            }
            return new Row(
                    TraceSource.timestamp(file, line, fields.get(timestamp)),
                    length(file, line, "input_length", fields.get(input)),
                    length(file, line, "output_length", fields.get(output)),
                    hashes);
        }

        /** Splits one CSV line at commas outside double quotes; {@code ""} inside quotes is a quote. */
        static List<String> split(Path file, long line, String text) {
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        field.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    fields.add(field.toString());
                    field.setLength(0);
                } else {
                    field.append(c);
                }
            }
            if (quoted) {
                throw DatasetException.at(file, line, "unclosed quote");
            }
            fields.add(field.toString());
            return fields;
        }
    }
}
