package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.config.RunConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * docs/coming-from.md holds: every vLLM spelling it says is accepted makes the same configuration
 * as the llmload spelling beside it, and every peer flag it says is spelled otherwise gets that
 * spelling in one line.
 */
class ComingFromTest {

    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    @TempDir
    static Path dir;

    private static Path shareGpt;

    @BeforeAll
    static void dataset() throws Exception {
        shareGpt = Files.writeString(dir.resolve("sharegpt.json"),
                "[{\"conversations\":[{\"from\":\"human\",\"value\":\"hello\"},{\"from\":\"gpt\",\"value\":\"hi\"}]}]");
    }

    /** One table row: the peer's cell, llmload's cell, and the rest. */
    private record Row(String peer, String llmload, List<String> rest) {}

    /** The rows of the table under the heading that starts with {@code heading}. */
    private static List<Row> table(String heading) throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "coming-from.md"));
        String section = doc.substring(doc.indexOf("\n## " + heading));
        int next = section.indexOf("\n## ", 4);
        section = next < 0 ? section : section.substring(0, next);
        List<Row> rows = new ArrayList<>();
        for (String line : section.lines().toList()) {
            if (!line.startsWith("| `")) {
                continue;
            }
            List<String> cells = Arrays.stream(line.substring(1, line.length() - 1).split(" \\| "))
                    .map(String::strip).toList();
            rows.add(new Row(cells.get(0), cells.get(1), cells.subList(2, cells.size())));
        }
        assertThat(rows).as(heading).isNotEmpty();
        return rows;
    }

    /** The command-line words in a cell's first code span; none for "(the default)". */
    private List<String> words(String cell) {
        Matcher code = CODE.matcher(cell);
        if (!code.find()) {
            return List.of();
        }
        return Arrays.stream(code.group(1).split(" "))
                .map(word -> word.replace("URL", "http://127.0.0.1:8000").replace("FILE", shareGpt.toString())
                        .replace("DIR", dir.resolve("out").toString()))
                .toList();
    }

    private static String flag(String cell) {
        Matcher code = CODE.matcher(cell);
        assertThat(code.find()).as(cell).isTrue();
        return code.group(1).split(" ")[0];
    }

    /** The configuration {@code llmload run ARGS} would run. */
    private static RunConfig config(List<String> args) {
        CommandLine main = Main.commandLine();
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(args);
        main.parseArgs(all.toArray(String[]::new));
        return ((RunCommand) main.getSubcommands().get("run").getCommand()).config();
    }

    @Test
    void everyAcceptedVllmSpellingMakesTheSameConfigurationAsLlmloads() throws Exception {
        int accepted = 0;
        for (Row row : table("vLLM")) {
            if (!row.rest().get(0).equals("yes")) {
                continue;
            }
            accepted++;
            RunConfig theirs = config(words(row.peer()));
            RunConfig ours = config(words(row.llmload()));
            assertThat(theirs).as("%s against %s", row.peer(), row.llmload()).isEqualTo(ours);
            // Not trivially so: each alias changes something, or is documented as the default.
            if (!row.llmload().contains("(the default)")) {
                assertThat(ours).as(row.llmload()).isNotEqualTo(config(List.of()));
            }
        }
        assertThat(accepted).isGreaterThanOrEqualTo(15);
    }

    @Test
    void everyOtherPeerSpellingIsNamedInOneLineAndTheTableHoldsNoOthers() throws Exception {
        Map<String, String> documented = new LinkedHashMap<>();
        Map<String, String> peers = Map.of("vLLM", "vLLM's", "AIPerf", "AIPerf's", "GuideLLM", "GuideLLM's");
        for (var peer : peers.entrySet()) {
            for (Row row : table(peer.getKey())) {
                if (peer.getKey().equals("vLLM") && row.rest().get(0).equals("yes")) {
                    continue;
                }
                String theirs = flag(row.peer());
                String ours = flag(row.llmload());
                CapturedRun outcome = CapturedRun.of("run", theirs, "1");
                assertThat(outcome.exitCode()).as(theirs).isEqualTo(Main.EXIT_USAGE);
                assertThat(outcome.err().strip().lines()).as(theirs).hasSize(1);
                assertThat(outcome.err()).as(theirs).contains("llmload spells ").contains(peer.getValue())
                        .contains(" " + theirs + " as " + ours);
                documented.put(theirs, ours);
            }
        }
        assertThat(PeerSpellings.flags()).containsExactlyInAnyOrderElementsOf(documented.keySet());
    }

    @Test
    void aTypoGetsTheNearestOptionInOneLine() {
        CapturedRun outcome = CapturedRun.of("run", "--max-concurency", "4");
        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(outcome.err().strip().lines()).hasSize(1);
        // The nearest name only: not every option that starts alike.
        assertThat(outcome.err()).contains("unknown option --max-concurency; did you mean --max-concurrency?")
                .doesNotContain("--max-error-rate");
        CapturedRun withValue = CapturedRun.of("run", "--num-request=5");
        assertThat(withValue.err().strip().lines()).hasSize(1);
        assertThat(withValue.err()).contains("unknown option --num-request; did you mean --num-requests");
    }

    @Test
    void vllmValuesLlmloadCannotMeanTheSameWayAreRefusedInOneLine() {
        for (String[] args : List.of(new String[] {"--backend", "tgi"}, new String[] {"--endpoint", "/v1/embeddings"},
                new String[] {"--dataset-name", "sonnet"}, new String[] {"--backend", "openai", "--api", "chat"},
                new String[] {"--request-rate", "inf", "--duration", "10s"},
                new String[] {"--goodput", "ttft:5", "--slo", "ttft:5"}, new String[] {"--request-rate", "fast"})) {
            List<String> all = new ArrayList<>(List.of("run"));
            all.addAll(List.of(args));
            CapturedRun outcome = CapturedRun.of(all.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(all.toString()).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines()).as(all.toString()).hasSize(1);
            assertThat(outcome.err()).as(all.toString()).doesNotContain("Exception");
        }
    }
}
