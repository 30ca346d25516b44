package dev.llmload.workload.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.ContentHash;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.List;

/**
 * Requests from a ShareGPT file: a top-level JSON array of
 * {@code {"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}, ...]}}.
 * The first human turn ({@code from} = {@code human} or {@code user}) is the prompt; the turn
 * right after it, when it is the model's ({@code gpt}, {@code chatgpt}, {@code assistant}, {@code bard}),
 * gives the output length as its token count, unless {@link OutputLengths} overrides it.
 *
 * <p>The file is read with Jackson's streaming parser, one entry at a time, so its size does not
 * matter. An entry that is not an object, has no {@code conversations} array or has a malformed
 * turn is an error. A well-formed conversation without a human turn, without an answer after it
 * (when answers give the length) or with empty texts is common in the public dumps and is passed
 * over; {@link #skipped()} counts those met so far, and {@link #prescan} counts them all.
 *
 * <p>As with {@link JsonlSource}, the constructor reads nothing; {@link #open} prescans first.
 */
public final class ShareGptSource extends FileSource {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();

    private JsonParser parser;
    private long entryNumber;
    private long skipped;

    public ShareGptSource(Path file, Tokenizer tokenizer, OutputLengths outputLengths, long seed) {
        super(file, tokenizer, outputLengths, seed);
    }

    /**
     * Prescans {@code file} and opens it.
     *
     * @throws DatasetException at the first bad entry, or when no entry is usable
     */
    public static ShareGptSource open(Path file, Tokenizer tokenizer, OutputLengths outputLengths, long seed) {
        DatasetScan scan = prescan(file, outputLengths);
        ShareGptSource source = new ShareGptSource(file, tokenizer, outputLengths, seed);
        source.knownHash(scan.sha256());
        return source;
    }

    /**
     * Parses and checks every entry without tokenizing, hashing the bytes on the way.
     *
     * @throws DatasetException at the first bad entry, or when no entry is usable
     */
    public static DatasetScan prescan(Path file, OutputLengths outputLengths) {
        MessageDigest digest = ContentHash.sha256();
        long entries = 0;
        long skipped = 0;
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest);
                JsonParser scanner = start(file, in)) {
            long number = 0;
            JsonNode entry;
            while ((entry = nextEntry(file, scanner, ++number)) != null) {
                if (conversation(file, scanner, number, entry, outputLengths) == null) {
                    skipped++;
                } else {
                    entries++;
                }
            }
            // Hash the whole file, including anything after the array.
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
        if (entries == 0) {
            throw DatasetException.in(file, "no usable conversation (" + skipped + " passed over)");
        }
        return new DatasetScan(file, entries, skipped, ContentHash.hex(digest));
    }

    /** Conversations passed over so far because they have no usable prompt or answer. */
    public long skipped() {
        return skipped;
    }

    @Override
    protected String format() {
        return "sharegpt";
    }

    @Override
    protected RequestSpec readNext() {
        try {
            if (parser == null) {
                parser = start(file, Files.newInputStream(file));
                input = parser;
            }
            JsonNode entry;
            while ((entry = nextEntry(file, parser, ++entryNumber)) != null) {
                Conversation conversation = conversation(file, parser, entryNumber, entry, outputLengths);
                if (conversation == null) {
                    skipped++;
                    continue;
                }
                int answerTokens = conversation.answer() == null ? 0 : tokenizer.count(conversation.answer());
                if (!outputLengths.overrideDataset() && answerTokens == 0) {
                    skipped++;
                    continue;
                }
                return new RequestSpec(
                        index++,
                        List.of(ChatMessage.user(conversation.prompt())),
                        tokenizer.count(conversation.prompt()),
                        outputLengths.resolve(answerTokens, random));
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

    private record Conversation(String prompt, String answer) {}

    private static JsonParser start(Path file, InputStream in) throws IOException {
        JsonParser parser = FACTORY.createParser(in);
        parser.setCodec(JSON);
        JsonToken first = token(file, parser);
        if (first != JsonToken.START_ARRAY) {
            parser.close();
            throw DatasetException.in(file, first == null ? "empty file" : "expected a JSON array of conversations");
        }
        return parser;
    }

    /** The next array element as a tree, or null after the last; {@code number} is 1-based. */
    private static JsonNode nextEntry(Path file, JsonParser parser, long number) throws IOException {
        JsonToken token = token(file, parser);
        if (token == JsonToken.END_ARRAY) {
            return null;
        }
        if (token == null) {
            throw DatasetException.in(file, "the array is not closed");
        }
        long line = parser.currentLocation().getLineNr();
        if (token != JsonToken.START_OBJECT) {
            throw DatasetException.at(file, line, "entry " + number + " is not an object");
        }
        try {
            return parser.readValueAsTree();
        } catch (JsonProcessingException e) {
            throw DatasetException.at(
                    file,
                    e.getLocation() == null ? line : e.getLocation().getLineNr(),
                    "not valid JSON (" + e.getOriginalMessage() + ")");
        }
    }

    private static JsonToken token(Path file, JsonParser parser) throws IOException {
        try {
            return parser.nextToken();
        } catch (JsonProcessingException e) {
            throw DatasetException.at(
                    file,
                    e.getLocation() == null
                            ? parser.currentLocation().getLineNr()
                            : e.getLocation().getLineNr(),
                    "not valid JSON (" + e.getOriginalMessage() + ")");
        }
    }

    /** The prompt and answer of an entry, or null when it is well formed but unusable. */
    private static Conversation conversation(
            Path file, JsonParser parser, long number, JsonNode entry, OutputLengths outputLengths) {
        long line = parser.currentLocation().getLineNr();
        JsonNode turns = entry.get("conversations");
        if (turns == null || !turns.isArray()) {
            throw DatasetException.at(file, line, "entry " + number + " has no \"conversations\" array");
        }
        for (int i = 0; i < turns.size(); i++) {
            JsonNode from = turns.get(i).get("from");
            JsonNode value = turns.get(i).get("value");
            if (from == null || !from.isTextual() || value == null || !value.isTextual()) {
                throw DatasetException.at(
                        file, line, "entry " + number + " turn " + (i + 1) + " needs string \"from\" and \"value\"");
            }
        }
        for (int i = 0; i < turns.size(); i++) {
            String from = turns.get(i).get("from").asText();
            if (from.equals("human") || from.equals("user")) {
                String prompt = turns.get(i).get("value").asText();
                String answer = i + 1 < turns.size()
                                && isModel(turns.get(i + 1).get("from").asText())
                        ? turns.get(i + 1).get("value").asText()
                        : null;
                boolean needsAnswer = !outputLengths.overrideDataset();
                if (prompt.isBlank() || (needsAnswer && (answer == null || answer.isBlank()))) {
                    return null;
                }
                return new Conversation(prompt, answer);
            }
        }
        return null;
    }

    private static boolean isModel(String from) {
        return from.equals("gpt") || from.equals("chatgpt") || from.equals("assistant") || from.equals("bard");
    }
}
