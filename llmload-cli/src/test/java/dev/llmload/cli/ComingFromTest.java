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
        shareGpt = Files.writeString(
                dir.resolve("sharegpt.json"),
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
            List<String> cells = Arrays.stream(
                            line.substring(1, line.length() - 1).split(" \\| "))
                    .map(String::strip)
                    .toList();
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
                .map(word -> word.replace("URL", "http://127.0.0.1:8000")
                        .replace("FILE", shareGpt.toString())
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
                assertThat(outcome.err())
                        .as(theirs)
                        .contains("llmload spells ")
                        .contains(peer.getValue())
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
        assertThat(outcome.err())
                .contains("unknown option --max-concurency; did you mean --max-concurrency?")
                .doesNotContain("--max-error-rate");
        CapturedRun withValue = CapturedRun.of("run", "--num-request=5");
        assertThat(withValue.err().strip().lines()).hasSize(1);
        assertThat(withValue.err()).contains("unknown option --num-request; did you mean --num-requests");
    }

    /** AIPerf's own example line, typed after llmload run: every flag to change is named in the first answer. */
    @Test
    void anAiperfCommandLineGetsEveryUnknownOptionAtOnceEachWithLlmloadsSpelling() {
        CapturedRun outcome = CapturedRun.of(
                "run",
                "-m",
                "Qwen/Qwen3-0.6B",
                "--endpoint-type",
                "chat",
                "--streaming",
                "-u",
                "http://127.0.0.1:8000",
                "--synthetic-input-tokens-mean",
                "1000",
                "--synthetic-input-tokens-stddev",
                "0",
                "--output-tokens-mean",
                "200",
                "--output-tokens-stddev",
                "0",
                "--concurrency",
                "10",
                "--request-count",
                "64",
                "--warmup-request-count",
                "2",
                "--random-seed=7");

        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(outcome.out()).isEmpty();
        assertThat(outcome.err()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(outcome.err().lines().toList())
                .containsExactly(
                        "llmload: unknown option -m: llmload spells AIPerf's -m as --model",
                        "llmload: unknown option --endpoint-type: llmload spells AIPerf's --endpoint-type as --api",
                        "llmload: unknown option --streaming: llmload spells AIPerf's --streaming as --no-stream "
                                + "(streaming is the default)",
                        "llmload: unknown option -u: llmload spells AIPerf's -u as --url",
                        "llmload: unknown option --synthetic-input-tokens-mean: llmload spells AIPerf's "
                                + "--synthetic-input-tokens-mean as --input-tokens",
                        "llmload: unknown option --synthetic-input-tokens-stddev: llmload spells AIPerf's "
                                + "--synthetic-input-tokens-stddev as --input-tokens normal:MEAN:STD",
                        "llmload: unknown option --output-tokens-mean: llmload spells AIPerf's --output-tokens-mean as "
                                + "--output-tokens",
                        "llmload: unknown option --output-tokens-stddev: llmload spells AIPerf's --output-tokens-stddev as "
                                + "--output-tokens normal:MEAN:STD",
                        "llmload: unknown option --request-count: llmload spells AIPerf's --request-count as --num-requests",
                        "llmload: unknown option --warmup-request-count: llmload spells AIPerf's --warmup-request-count as "
                                + "--warmup",
                        "llmload: unknown option --random-seed: llmload spells AIPerf's and GuideLLM's --random-seed as --seed "
                                + "(see 'llmload run --help')");

        // The line as the answers say: it is accepted (parsed into a configuration) as typed.
        RunConfig fixed = config(List.of(
                "--model",
                "Qwen/Qwen3-0.6B",
                "--api",
                "chat",
                "--url",
                "http://127.0.0.1:8000",
                "--input-tokens",
                "normal:1000:0",
                "--output-tokens",
                "normal:200:0",
                "--concurrency",
                "10",
                "--num-requests",
                "64",
                "--warmup",
                "2",
                "--seed",
                "7"));
        assertThat(fixed.bounds().numRequests()).isEqualTo(64);
    }

    @Test
    void aGuidellmLineAndTyposAndStrayWordsAreAllNamedInOrder() {
        CapturedRun outcome = CapturedRun.of(
                "run",
                "--target",
                "http://127.0.0.1:8000",
                "--rate-type",
                "concurrent",
                "--rate",
                "8",
                "--max-requests",
                "100",
                "--concurency",
                "4",
                "stray",
                "--num-request=5");

        assertThat(outcome.exitCode()).isEqualTo(Main.EXIT_USAGE);
        assertThat(outcome.err().lines().toList())
                .containsExactly(
                        "llmload: unknown option --target: llmload spells GuideLLM's --target as --url",
                        "llmload: unknown option --rate-type: llmload spells GuideLLM's --rate-type as --request-rate or "
                                + "--concurrency",
                        "llmload: unknown option --rate: llmload spells GuideLLM's --rate as --request-rate or --concurrency",
                        "llmload: unknown option --max-requests: llmload spells GuideLLM's --max-requests as --num-requests",
                        "llmload: unknown option --concurency; did you mean --concurrency?",
                        "llmload: unknown option --num-request; did you mean --num-requests? (see 'llmload run --help')");
        // A word that follows no unknown option is named too.
        CapturedRun stray = CapturedRun.of("run", "--num-requests", "5", "stray");
        assertThat(stray.err().strip()).isEqualTo("llmload: unexpected argument 'stray' (see 'llmload run --help')");
    }

    @Test
    void anotherToolsCommandNamesLlmloadsInOneLine() {
        for (String[] args : List.of(
                new String[] {"profile", "-m", "x", "--endpoint-type", "chat"},
                new String[] {"bench", "serve", "--model", "x"},
                new String[] {"benchmark", "--target", "x"})) {
            CapturedRun outcome = CapturedRun.of(args);

            assertThat(outcome.exitCode()).as(args[0]).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines()).as(args[0]).hasSize(1);
            assertThat(outcome.err())
                    .as(args[0])
                    .startsWith("llmload: unknown command '" + args[0] + "': ")
                    .contains("is 'llmload run'");
        }
        assertThat(CapturedRun.of("rnu", "--concurrency", "4").err().strip())
                .isEqualTo("llmload: unknown command 'rnu'; did you mean 'run'? (see 'llmload --help')");
        // An option before the command: it belongs after it.
        assertThat(CapturedRun.of("--concurrency", "4").err().strip())
                .isEqualTo(
                        "llmload: unknown option "
                                + "--concurrency: options follow the command, as in 'llmload run --concurrency' (see 'llmload --help')");
    }

    @Test
    void vllmValuesLlmloadCannotMeanTheSameWayAreRefusedInOneLine() {
        for (String[] args : List.of(
                new String[] {"--backend", "tgi"},
                new String[] {"--endpoint", "/v1/embeddings"},
                new String[] {"--dataset-name", "sonnet"},
                new String[] {"--backend", "openai", "--api", "chat"},
                new String[] {"--request-rate", "inf", "--duration", "10s"},
                new String[] {"--goodput", "ttft:5", "--slo", "ttft:5"},
                new String[] {"--request-rate", "fast"})) {
            List<String> all = new ArrayList<>(List.of("run"));
            all.addAll(List.of(args));
            CapturedRun outcome = CapturedRun.of(all.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(all.toString()).isEqualTo(Main.EXIT_USAGE);
            assertThat(outcome.err().strip().lines()).as(all.toString()).hasSize(1);
            assertThat(outcome.err()).as(all.toString()).doesNotContain("Exception");
        }
    }
}
