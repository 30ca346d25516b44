package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The docs point only to files in the repository, and every JSON Schema there is pointed to. */
class DocsLinksTest {

    private static final Path ROOT = Path.of("..");
    /** A markdown link or image: {@code [text](target)}. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(DocSchemas.DOCS)) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    @Test
    void everyRelativeLinkLeadsToAFileInTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path document : documents()) {
            Matcher link = LINK.matcher(Files.readString(document));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*") || target.startsWith("#")) {
                    continue; // a web address or a place in the same page
                }
                String file = target.replaceAll("#.*$", "");
                if (!Files.exists(document.getParent().resolve(file))) {
                    broken.add(document.getFileName() + " -> " + target);
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void everySchemaIsLinkedFromTheDocs() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path document : documents()) {
            all.append(Files.readString(document));
        }
        assertThat(DocSchemas.schemaFiles())
                .contains(
                        "report.schema.json",
                        "requests.schema.json",
                        "sweep.schema.json",
                        "comparison.schema.json",
                        "repeats.schema.json");
        for (String schema : DocSchemas.schemaFiles()) {
            assertThat(all.toString())
                    .as("a link to docs/%s", schema)
                    .containsPattern("\\]\\((docs/)?" + Pattern.quote(schema) + "\\)");
        }
    }
}
