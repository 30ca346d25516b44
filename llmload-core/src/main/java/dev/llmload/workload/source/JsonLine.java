package dev.llmload.workload.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.workload.DatasetException;
import java.nio.file.Path;

/** Reads one line of a JSON Lines file as an object, or fails naming the file and line. */
public final class JsonLine {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLine() {}

    public static JsonNode object(Path file, long line, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw DatasetException.at(file, line, "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        if (!node.isObject()) {
            throw DatasetException.at(file, line, "expected a JSON object");
        }
        return node;
    }
}
