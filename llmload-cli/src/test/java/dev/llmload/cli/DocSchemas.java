package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * The JSON Schemas in {@code docs/} held against files llmload really wrote: a file must be valid,
 * and the schema must be strict enough to notice a renamed or retyped field of it.
 */
final class DocSchemas {

    /** Surefire runs in the module's directory; the docs are beside it. */
    static final Path DOCS = Path.of("..", "docs");

    private static final ObjectMapper JSON = new ObjectMapper();

    private DocSchemas() {}

    /**
     * Asserts {@code file} is valid against {@code docs/<schemaName>}, and that the schema rejects
     * the file with its first field renamed and with its first field's value of another type.
     */
    static void assertValidAndStrict(String schemaName, Path file) {
        Schema schema = schema(schemaName);
        String text = read(file);
        assertThat(schema.validate(text, InputFormat.JSON))
                .as("%s against %s", file, schemaName)
                .extracting(Error::getMessage)
                .isEmpty();
        ObjectNode renamed = object(text);
        String first = firstField(renamed);
        renamed.set(first + "_renamed", renamed.remove(first));
        assertThat(schema.validate(renamed.toString(), InputFormat.JSON))
                .as("%s with %s renamed", schemaName, first)
                .isNotEmpty();
        ObjectNode retyped = object(text);
        JsonNode value = retyped.get(first);
        // An object or array becomes a string; a string, number or boolean becomes an object.
        retyped.set(first, value.isContainerNode() ? JSON.getNodeFactory().textNode("x") : JSON.createObjectNode());
        assertThat(schema.validate(retyped.toString(), InputFormat.JSON))
                .as("%s with %s retyped", schemaName, first)
                .isNotEmpty();
    }

    static List<String> schemaFiles() {
        try (var files = Files.list(DOCS)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".schema.json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Schema schema(String name) {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(read(DOCS.resolve(name)), InputFormat.JSON);
    }

    private static ObjectNode object(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String firstField(ObjectNode node) {
        Iterator<String> names = node.fieldNames();
        return names.next();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
