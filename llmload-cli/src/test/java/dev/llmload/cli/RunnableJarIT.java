package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jars as a user gets them from {@code ./mvnw package} (run by failsafe after the package
 * phase): llmload.jar stays small, and the optional llmload-tokenizers.jar beside it is found
 * through the manifest's Class-Path when, and only when, it is there.
 */
@Tag("process")
class RunnableJarIT {

    private static final Path TARGET = Path.of("target");
    private static final Path JAR = TARGET.resolve("llmload.jar");
    private static final long LIMIT_BYTES = 10_000_000;
    /** The optional module's own fixture: a word-level tokenizer.json with a small vocabulary. */
    private static final Path TOKENIZER_JSON = Path.of(
                    "..",
                    "llmload-tokenizers",
                    "src",
                    "test",
                    "resources",
                    "dev",
                    "llmload",
                    "tokenizers",
                    "tokenizer.json")
            .toAbsolutePath()
            .normalize();

    @TempDir
    Path dir;

    @Test
    void runnableJarIsUnderTenMegabytes() throws IOException {
        long bytes = Files.size(JAR);

        assertThat(bytes)
                .as(
                        "%s is %.2f MB; the limit is %.0f MB (what grew? unzip -lv %s | sort -k3 -n)",
                        JAR, bytes / 1e6, LIMIT_BYTES / 1e6, JAR)
                .isLessThan(LIMIT_BYTES);
    }

    @Test
    void optionalTokenizersWorkFromTheJarBesideIt() throws Exception {
        assertThat(TARGET.resolve("llmload-tokenizers.jar")).isRegularFile();

        for (String tokenizer : List.of(TOKENIZER_JSON.toString(), "o200k_base")) {
            Path out = dir.resolve("run-" + (tokenizer.endsWith(".json") ? "json" : tokenizer));
            Result result = run(
                    JAR,
                    "run",
                    "--tokenizer",
                    tokenizer,
                    "--num-requests",
                    "3",
                    "--input-tokens",
                    "16",
                    "--output-tokens",
                    "4",
                    "--output-dir",
                    out.toString());

            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(Files.readString(out.resolve("report.json"))).contains("\"tokenizer\" : \"" + tokenizer + "\"");
        }
    }

    @Test
    void withoutTheOptionalJarANonDefaultTokenizerIsAOneLineError() throws Exception {
        Path alone = Files.copy(JAR, dir.resolve("llmload.jar"));

        for (String tokenizer : List.of(TOKENIZER_JSON.toString(), "o200k_base")) {
            Result result = run(
                    alone,
                    "run",
                    "--tokenizer",
                    tokenizer,
                    "--num-requests",
                    "1",
                    "--output-dir",
                    dir.resolve("never").toString());

            assertThat(result.exitCode()).as(result.output()).isNotZero();
            assertThat(result.output()).doesNotContain("Exception", "\tat ");
            assertThat(result.output().strip().lines().toList().getLast())
                    .startsWith("llmload: tokenizer ")
                    .contains(tokenizer, "needs llmload-tokenizers.jar on the class path: put it beside llmload.jar");
        }
    }

    /**
     * A tokenizer under which no common word is one token (here one of single characters) cannot
     * make synthetic prompts. It is found when the first prompt is made, after the test request,
     * and stops the run there with one line: no journal, no report.
     */
    @Test
    void aTokenizerThatCannotMakeSyntheticPromptsStopsTheRunInOneLineBeforeTheLoad() throws Exception {
        StringBuilder vocabulary = new StringBuilder();
        String characters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,'-";
        for (int i = 0; i < characters.length(); i++) {
            vocabulary
                    .append(i == 0 ? "" : ",")
                    .append('"')
                    .append(characters.charAt(i))
                    .append("\":")
                    .append(i);
        }
        Path tokenizer = Files.writeString(
                dir.resolve("tokenizer.json"),
                "{\"version\":\"1.0\",\"added_tokens\":[]," + "\"model\":{\"type\":\"BPE\",\"vocab\":{" + vocabulary
                        + "},\"merges\":[]}}");
        Path out = dir.resolve("characters");

        Result result = run(
                JAR,
                "run",
                "--tokenizer",
                tokenizer.toString(),
                "--num-requests",
                "3",
                "--output-tokens",
                "4",
                "--output-dir",
                out.toString());

        assertThat(result.exitCode()).as(result.output()).isNotZero();
        assertThat(result.output()).doesNotContain("Exception", "\tat ");
        assertThat(result.output().strip().lines().toList().getLast())
                .isEqualTo("llmload: tokenizer " + tokenizer
                        + " makes only 0 common English words single tokens; synthetic prompts need at least 64");
        assertThat(out.resolve("requests.jsonl")).doesNotExist();
        assertThat(out.resolve("report.json")).doesNotExist();
    }

    /**
     * {@code java -jar llmload.jar} on a Java older than 21 (one installed under /usr/lib/jvm, such
     * as Debian's default 17) answers in one line which Java it needs, instead of the JVM's
     * UnsupportedClassVersionError and its stack trace.
     */
    @Test
    void anOlderJavaGetsOneLineNamingTheJavaLlmloadNeeds() throws Exception {
        Optional<InstalledJdks.Jdk> older = InstalledJdks.all().stream()
                .filter(jdk -> jdk.major() < JavaVersionCheck.NEEDED)
                .findFirst();
        assumeTrue(
                older.isPresent(),
                "no Java older than 21 is installed (under /usr/lib/jvm), so the jar's "
                        + "answer to one is not checked here");

        Result result = run(List.of(older.get().java().toString(), "-jar", JAR.toString(), "run", "--help"));

        assertThat(result.exitCode()).as(result.output()).isEqualTo(Main.EXIT_CANNOT_START);
        assertThat(result.output().strip().lines()).as(result.output()).hasSize(1);
        assertThat(result.output())
                .startsWith("llmload: needs Java 21 or newer, and this java is "
                        + older.get().major() + " (")
                .doesNotContain("Exception", "Error", "\tat ");
    }

    private record Result(int exitCode, String output) {}

    private Result run(Path jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:+UseZGC",
                "--enable-native-access=ALL-UNNAMED",
                "-jar",
                jar.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private Result run(List<String> command) throws IOException, InterruptedException {
        List<String> args = command.subList(command.indexOf("-jar") + 2, command.size());
        Path log = Files.createTempFile(dir, "llmload", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("llmload " + String.join(" ", args) + " did not finish in 2 minutes");
        }
        return new Result(process.exitValue(), Files.readString(log));
    }
}
