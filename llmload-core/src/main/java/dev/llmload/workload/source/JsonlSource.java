package dev.llmload.workload.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests from a JSON Lines file, one entry per line, read one line at a time:
 * <pre>
 * {"prompt": "Summarise ...", "output_tokens": 128}
 * {"messages": [{"role": "system", "content": "..."}, {"role": "user", "content": "..."}]}
 * </pre>
 * {@code output_tokens} is optional; {@link OutputLengths} says what fills it in or overrides it.
 * Blank lines are skipped. The input token count is the tokenizer's count of the prompt text
 * (messages joined by newlines, without any chat template).
 *
 * <p>The constructor reads nothing; iteration opens the file and reads a line per request, so a
 * bad line is only met when reached. {@link #prescan} checks every line first, and {@link #open}
 * prescans and then opens, failing on the first bad line before any load is sent.
 */
public final class JsonlSource extends FileSource {

    private BufferedReader reader;
    private long lineNumber;

    /** A source that reads {@code file} lazily; see {@link #open} for the checked variant. */
    public JsonlSource(Path file, Tokenizer tokenizer, OutputLengths outputLengths, long seed) {
        super(file, tokenizer, outputLengths, seed);
    }

    /**
     * Prescans {@code file} and opens it.
     *
     * @throws DatasetException at the first bad line, or when the file has no entry
     */
    public static JsonlSource open(Path file, Tokenizer tokenizer, OutputLengths outputLengths, long seed) {
        DatasetScan scan = prescan(file);
        JsonlSource source = new JsonlSource(file, tokenizer, outputLengths, seed);
        source.knownHash(scan.sha256());
        return source;
    }

    /**
     * Parses and checks every line without tokenizing, hashing the bytes on the way.
     *
     * @throws DatasetException at the first bad line, or when the file has no entry
     */
    public static DatasetScan prescan(Path file) {
        long[] entries = {0};
        String sha256 = HashedLines.read(file, (number, line) -> {
            parse(file, number, line);
            entries[0]++;
        });
        if (entries[0] == 0) {
            throw DatasetException.in(file, "no entries");
        }
        return new DatasetScan(file, entries[0], 0, sha256);
    }

    @Override
    protected String format() {
        return "jsonl";
    }

    @Override
    protected RequestSpec readNext() {
        try {
            if (reader == null) {
                reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                input = reader;
            }
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (!line.isBlank()) {
                    Entry entry = parse(file, lineNumber, line);
                    RequestSpec spec = new RequestSpec(
                            index++,
                            entry.messages(),
                            tokenizer.count(promptText(entry.messages())),
                            outputLengths.resolve(entry.outputTokens(), random));
                    return spec;
                }
            }
            close();
            return null;
        } catch (IOException e) {
            close();
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        } catch (DatasetException e) {
            close();
            throw e;
        }
    }

    private static String promptText(List<ChatMessage> messages) {
        return new RequestSpec(0, messages, 0, 0).promptText();
    }

    /** One line's content; {@code outputTokens} is 0 when the line has none. */
    private record Entry(List<ChatMessage> messages, int outputTokens) {}

    private static Entry parse(Path file, long line, String text) {
        JsonNode node = JsonLine.object(file, line, text);
        List<ChatMessage> messages = new ArrayList<>();
        JsonNode prompt = node.get("prompt");
        JsonNode list = node.get("messages");
        if (prompt != null && list != null) {
            throw DatasetException.at(file, line, "has both \"prompt\" and \"messages\"; use one");
        } else if (prompt != null) {
            if (!prompt.isTextual() || prompt.asText().isEmpty()) {
                throw DatasetException.at(file, line, "\"prompt\" must be a non-empty string");
            }
            messages.add(ChatMessage.user(prompt.asText()));
        } else if (list != null) {
            if (!list.isArray() || list.isEmpty()) {
                throw DatasetException.at(file, line, "\"messages\" must be a non-empty array");
            }
            for (JsonNode message : list) {
                JsonNode role = message.get("role");
                JsonNode content = message.get("content");
                if (role == null || !role.isTextual() || content == null || !content.isTextual()) {
                    throw DatasetException.at(file, line, "each message needs string \"role\" and \"content\"");
                }
                messages.add(new ChatMessage(role.asText(), content.asText()));
            }
        } else {
            throw DatasetException.at(file, line, "has neither \"prompt\" nor \"messages\"");
        }
        JsonNode output = node.get("output_tokens");
        int outputTokens = 0;
        if (output != null && !output.isNull()) {
            if (!output.canConvertToInt() || !output.isIntegralNumber() || output.intValue() < 1) {
                throw DatasetException.at(file, line, "\"output_tokens\" must be a whole number ≥ 1, got " + output);
            }
            outputTokens = output.intValue();
        }
        return new Entry(messages, outputTokens);
    }
}
