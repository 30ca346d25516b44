package dev.llmload.workload.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.source.JsonLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * AIPerf's two session file formats, each line translated into the turns {@link TraceSessions}
 * replays (docs/workloads.md says which fields are read and why the others are not):
 *
 * <ul>
 *   <li>{@code mooncake_trace} records: one request a line; records with the same
 *       {@code session_id} are the turns of one session in file order, the first at its
 *       {@code timestamp}, each later one a {@code delay} after the previous answer or not before
 *       its own {@code timestamp}. A record without {@code session_id} is a session of one turn.
 *   <li>{@code multi_turn}: one session a line, {@code {"session_id": .., "turns": [..]}}, each
 *       turn a {@code text} with optional {@code output_length}, {@code delay} and
 *       {@code timestamp}.
 * </ul>
 *
 * Times are milliseconds, as AIPerf's pages give them. Owned by the thread reading the file.
 */
final class AiperfTraceLines {

    /** Fields whose content llmload would have to send verbatim or as media; refused, not dropped. */
    private static final List<String> MOONCAKE_REFUSED = List.of("messages", "payload");

    private static final List<String> TURN_REFUSED =
            List.of("texts", "image", "images", "audio", "audios", "video", "videos");

    /**
     * One turn as read; -1 for an absent time.
     *
     * @param key  the session it belongs to, unique in the file
     * @param name the session as messages and reports name it
     */
    record Turn(
            String key,
            String name,
            long line,
            double timestampMillis,
            double delayMillis,
            int inputTokens,
            int outputTokens,
            String prompt) {}

    private final Path file;
    private final boolean mooncake;
    private final SyntheticPrompts prompts;
    private final LengthDistribution defaultOutput;
    private final SplittableRandom random;
    private final Map<String, Long> sessionLines = new HashMap<>();

    /**
     * @param mooncake      {@code mooncake_trace} records, else {@code multi_turn} sessions
     * @param defaultOutput the answer length of a {@code multi_turn} turn without
     *                      {@code output_length}; null to require it
     */
    AiperfTraceLines(
            Path file, boolean mooncake, SyntheticPrompts prompts, LengthDistribution defaultOutput, long seed) {
        this.file = file;
        this.mooncake = mooncake;
        this.prompts = prompts;
        this.defaultOutput = defaultOutput;
        this.random = new SplittableRandom(seed);
    }

    /**
     * Whether any record of a {@code mooncake_trace} file names a {@code session_id}; one that
     * names none is replayed as independent requests by the Mooncake reader.
     */
    static boolean hasSessions(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank() && JsonLine.object(file, number, line).hasNonNull("session_id")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw DatasetException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    /** The turns one line gives, in order. */
    List<Turn> read(JsonNode node, long line) {
        return mooncake ? List.of(record(node, line)) : session(node, line);
    }

    private Turn record(JsonNode node, long line) {
        for (String field : MOONCAKE_REFUSED) {
            if (node.has(field)) {
                throw DatasetException.at(
                        file,
                        line,
                        "\"" + field + "\" is not replayed: llmload sends each session's real history "
                                + "(give \"input_length\" or \"text_input\")");
            }
        }
        String id = TraceSessions.name(file, node, "session_id", line);
        String key = id == null ? anonymous(line) : id;
        String prompt = text(node, "text_input", line);
        if (prompt != null && node.hasNonNull("input_length")) {
            throw DatasetException.at(file, line, "give \"input_length\" or \"text_input\", not both");
        }
        int inputTokens = prompt != null
                ? prompts.tokenizer().count(prompt)
                : TraceSessions.whole(file, node, "input_length", line, 1);
        return timed(
                node,
                line,
                key,
                id == null ? "line " + line : id,
                inputTokens,
                TraceSessions.whole(file, node, "output_length", line, 1),
                prompt);
    }

    private List<Turn> session(JsonNode node, long line) {
        String id = TraceSessions.name(file, node, "session_id", line);
        String key = id == null ? anonymous(line) : id;
        Long earlier = sessionLines.putIfAbsent(key, line);
        if (earlier != null) {
            throw DatasetException.at(file, line, "session '" + id + "' is already on line " + earlier);
        }
        JsonNode turns = node.get("turns");
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            throw DatasetException.at(file, line, "needs \"turns\", a non-empty array");
        }
        String name = id == null ? "line " + line : id;
        List<Turn> made = new ArrayList<>(turns.size());
        for (int i = 0; i < turns.size(); i++) {
            try {
                made.add(turn(turns.get(i), line, key, name));
            } catch (DatasetException e) {
                String place = file + ":" + line + ": ";
                String reason =
                        e.getMessage().startsWith(place) ? e.getMessage().substring(place.length()) : e.getMessage();
                throw DatasetException.at(file, line, "turn " + (i + 1) + ": " + reason);
            }
        }
        return made;
    }

    private Turn turn(JsonNode turn, long line, String key, String name) {
        if (!turn.isObject()) {
            throw DatasetException.at(file, line, "expected a JSON object");
        }
        for (String field : TURN_REFUSED) {
            if (turn.has(field)) {
                throw DatasetException.at(file, line, "\"" + field + "\" is not sent: llmload replays text turns only");
            }
        }
        JsonNode role = turn.get("role");
        if (role != null && !role.isNull() && !"user".equals(role.asText())) {
            throw DatasetException.at(
                    file, line, "role " + role + " is not replayed: every turn is sent as a user message");
        }
        String prompt = text(turn, "text", line);
        if (prompt == null) {
            throw DatasetException.at(file, line, "needs \"text\"");
        }
        int outputTokens = turn.hasNonNull("output_length") || defaultOutput == null
                ? TraceSessions.whole(file, turn, "output_length", line, 1)
                : defaultOutput.sample(random);
        return timed(turn, line, key, name, prompts.tokenizer().count(prompt), outputTokens, prompt);
    }

    private Turn timed(
            JsonNode node, long line, String key, String name, int inputTokens, int outputTokens, String prompt) {
        double timestampMillis = TraceSessions.millis(file, node, "timestamp", line);
        double delayMillis = TraceSessions.millis(file, node, "delay", line);
        if (timestampMillis >= 0 && delayMillis >= 0) {
            throw DatasetException.at(file, line, "give \"timestamp\" or \"delay\", not both");
        }
        return new Turn(key, name, line, timestampMillis, delayMillis, inputTokens, outputTokens, prompt);
    }

    /** An optional non-empty text field; null when absent. */
    private String text(JsonNode node, String field, long line) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw DatasetException.at(file, line, "\"" + field + "\" must be non-empty text");
        }
        return value.asText();
    }

    /** A session without an id: named by its line, which no id can collide with as a key. */
    private static String anonymous(long line) {
        return "line " + line + '\u0000';
    }
}
