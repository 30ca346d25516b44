package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.sim.server.SimConfig;
import dev.llmload.sim.server.SimServer;
import dev.llmload.testsupport.HostLoad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./llmload} launcher's JVM settings and its class-data archive (bin/class-data.sh), on a copy of the
 * launcher with the jar as {@code ./mvnw package} built it: made on the first launch, mapped by
 * later ones without a word from the JVM, skipped silently when the JVM cannot use it, made again
 * for a newer jar, and neither made nor used with {@code LLMLOAD_CDS=off}. Whether a class came
 * from the archive is the JVM's own class-loading log of the launched process. And what the
 * launcher's compiler settings are for: the per-request code compiled before a run's clock, and
 * timings as precise in the run's first second as after it.
 */
@Tag("process")
class LauncherClassDataIT {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String PREPARING = "llmload: preparing class data";
    private static final String MAIN_FROM_ARCHIVE = "dev.llmload.cli.Main source: shared objects file";

    @TempDir
    Path root;

    private Path target;
    private Path jar;

    @BeforeEach
    void copyOfTheLauncher() throws IOException {
        assumeTrue(
                Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "javac")),
                "the tests run on a JRE; the launcher needs a JDK");
        Files.createDirectories(root.resolve("bin"));
        Files.copy(REPOSITORY.resolve("llmload"), root.resolve("llmload"));
        for (String script : List.of("java-home.sh", "class-data.sh")) {
            Files.copy(
                    REPOSITORY.resolve("bin").resolve(script),
                    root.resolve("bin").resolve(script));
        }
        target = Files.createDirectories(root.resolve("llmload-cli").resolve("target"));
        jar = Files.copy(Path.of("target", "llmload.jar"), target.resolve("llmload.jar"));
    }

    @Test
    void theFirstLaunchMakesTheArchiveAndLaterOnesMapItWithoutAWord() throws Exception {
        Launch first = launch(Map.of(), "--version");

        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(first.output()).contains(PREPARING).contains("llmload ");
        assertThat(archives()).hasSize(1);
        assertThat(first.classes()).contains(MAIN_FROM_ARCHIVE);

        Launch later = launch(Map.of(), "--version");

        assertThat(later.exitCode()).as(later.output()).isZero();
        assertThat(later.output().lines().toList())
                .as(later.output())
                .hasSize(2)
                .allSatisfy(line -> assertThat(line).matches("(llmload|Java) \\S+"));
        assertThat(later.classes()).contains(MAIN_FROM_ARCHIVE);

        // An archive this JVM cannot map (here: not an archive at all) is skipped without a word.
        Path archive = archives().getFirst();
        Files.writeString(archive, "not a class-data archive");
        Launch foreign = launch(Map.of(), "--version");

        assertThat(foreign.exitCode()).as(foreign.output()).isZero();
        assertThat(foreign.output()).isEqualTo(later.output());
        assertThat(foreign.classes())
                .contains("dev.llmload.cli.Main source: file:")
                .doesNotContain(MAIN_FROM_ARCHIVE);

        // A jar built after the archive gets a new one.
        Files.setLastModifiedTime(archive, FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        Launch rebuilt = launch(Map.of(), "--version");

        assertThat(rebuilt.exitCode()).as(rebuilt.output()).isZero();
        assertThat(rebuilt.output()).contains(PREPARING);
        assertThat(rebuilt.classes()).contains(MAIN_FROM_ARCHIVE);
        assertThat(archives()).containsExactly(archive);
    }

    @Test
    void offNeitherMakesNorUsesAnArchive() throws Exception {
        Launch off = launch(Map.of("LLMLOAD_CDS", "off"), "--version");

        assertThat(off.exitCode()).as(off.output()).isZero();
        assertThat(off.output()).doesNotContain(PREPARING);
        assertThat(archives()).isEmpty();
        assertThat(off.classes()).contains("dev.llmload.cli.Main source: file:");
    }

    /** The commands that send load get the quick JIT compiler alone, the others the optimising one; LLMLOAD_JAVA_OPTS wins. */
    @Test
    void theQuickCompilerForTheClientNotForTheSimulatorAndTheUsersOptionWins() throws Exception {
        Map<String, String> flags = Map.of("LLMLOAD_CDS", "off", "LLMLOAD_JAVA_OPTS", "-XX:+PrintCommandLineFlags");

        Launch client = launch(flags, "run", "--help");
        Launch simulator = launch(flags, "sim", "--help");
        Launch overridden = launch(
                Map.of("LLMLOAD_CDS", "off", "LLMLOAD_JAVA_OPTS", "-XX:+PrintCommandLineFlags -XX:TieredStopAtLevel=4"),
                "sweep",
                "--help");

        assertThat(client.exitCode()).as(client.output()).isZero();
        assertThat(client.output()).contains("-XX:TieredStopAtLevel=1");
        assertThat(simulator.exitCode()).as(simulator.output()).isZero();
        assertThat(simulator.output()).contains("-XX:+UseZGC").doesNotContain("TieredStopAtLevel");
        assertThat(overridden.output()).contains("-XX:TieredStopAtLevel=4").doesNotContain("-XX:TieredStopAtLevel=1");
    }

    /**
     * Netty's flight-recorder events stay unloaded in a run (the launcher's
     * {@code -Dio.netty.jfr.enabled=false}: their set-up cost start-up a tenth of a CPU-second),
     * and come back when a user asks for them.
     */
    @Test
    void aRunSetsUpNoneOfNettysFlightRecorderEventsUnlessTheUserAsksForThem() throws Exception {
        Launch plain = launch(Map.of("LLMLOAD_CDS", "off"), shortRun("plain"));
        Launch asked = launch(
                Map.of(
                        "LLMLOAD_CDS",
                        "off",
                        "LLMLOAD_JAVA_OPTS",
                        "-Dio.netty.jfr.enabled=true " + "-Xlog:class+load=info:file="
                                + root.resolve("classes-%p.log")),
                shortRun("asked"));

        assertThat(plain.exitCode()).as(plain.output()).isZero();
        assertThat(plain.loaded(NETTY_PLATFORM))
                .as("Netty's platform code loaded")
                .isTrue();
        assertThat(plain.loaded(NETTY_JFR_EVENT))
                .as("Netty's flight-recorder event loaded")
                .isFalse();
        assertThat(asked.exitCode()).as(asked.output()).isZero();
        assertThat(asked.loaded(NETTY_JFR_EVENT))
                .as("Netty's flight-recorder event loaded when asked for")
                .isTrue();
    }

    /**
     * The tokenizer's vocabulary (jtokkit's, a tenth of a CPU-second to read) is read after the
     * run's first request is sent, by the feed while the test request is on its way, and Jackson's
     * object mapper is not set up before it: in the JVM's class-loading log, the class that reads a
     * vocabulary and the object mapper come after the one that marks the first send
     * ({@code client.ProcessMark}, first used there).
     */
    @Test
    void theVocabularyAndTheObjectMapperComeAfterTheFirstRequestIsSent() throws Exception {
        Launch run;
        // A simulator of the test's own: the built-in one would read the vocabulary in the run's process.
        try (SimServer sim =
                SimServer.start(SimConfig.load(null, Map.of("engine", "fixed", "ttftMs", 5, "itlMs", 2)))) {
            List<String> args = new ArrayList<>(List.of(shortRun("vocabulary")));
            args.addAll(List.of("--url", sim.url()));
            run = launch(Map.of("LLMLOAD_CDS", "off"), args.toArray(String[]::new));
        }

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.loadedAt(FIRST_SEND_MARK))
                .as("the first send's mark loaded")
                .isPositive();
        assertThat(run.loadedAt(VOCABULARY_READER))
                .as("the vocabulary's reader, after the first send")
                .isGreaterThan(run.loadedAt(FIRST_SEND_MARK));
        assertThat(run.loadedAt(OBJECT_MAPPER))
                .as("Jackson's object mapper, after the first send")
                .isGreaterThan(run.loadedAt(FIRST_SEND_MARK));
    }

    /**
     * The code that runs once per request is compiled before the run's clock starts: the launcher
     * lowers the quick compiler's thresholds for it and the run's warm-up exchanges
     * (load/RequestWarmUp) call it often enough. Without either, a 16-stream run left it
     * interpreted throughout. So are the dispatcher's and the recorder's per-request code and
     * Netty's read path, which the warm-up reaches since it runs a run's dispatcher and recorder,
     * in rounds until one compiles nothing: without that they were compiled in the load's first
     * seconds. The JVM's own compilation log against the run's report.
     */
    @Test
    @Tag("timing")
    void thePerRequestCodeIsCompiledBeforeTheClock() throws Exception {
        Launch run = launch(
                Map.of("LLMLOAD_CDS", "off", "LLMLOAD_JAVA_OPTS", "-XX:+PrintCompilation"), shortRun("compiled"));

        assertThat(run.exitCode()).as(run.output()).isZero();
        String report = Files.readString(root.resolve("compiled").resolve("report.json"));
        Matcher clock =
                Pattern.compile("\"wall_before_load_s\"\\s*:\\s*([0-9.]+)").matcher(report);
        assertThat(clock.find()).as("report.json's client.wall_before_load_s").isTrue();
        double clockMs = Double.parseDouble(clock.group(1)) * 1000;
        for (String method : List.of(
                "dev.llmload.load.RequestExecution::onResponseHead",
                "dev.llmload.load.RequestExecution::finish",
                "dev.llmload.http.LoadHttpClient::start",
                "dev.llmload.http.ExchangeHandler::readChunked",
                "dev.llmload.load.Dispatcher::onFinished",
                "dev.llmload.load.Recorder::write",
                "io.netty.channel.AbstractChannelHandlerContext::fireChannelRead")) {
            assertThat(compiledAtMs(run.output(), method))
                    .as(method + " compiled (ms of uptime) before the clock at " + clockMs + " ms")
                    .isLessThan(clockMs);
        }
    }

    /**
     * What the code compiled before the clock is for: a run's timings are as precise in its first
     * second as after it. A 64-stream closed loop of 128 requests (256 tokens in, 64 out, TGI's
     * API) through the launcher against the fixed-latency simulator, each inter-token gap the
     * client measured against the simulator's own gap between the same two tokens in its
     * ground-truth log: at p99, the run's first second (from the client's clock) no more than 1 ms
     * worse than the whole run, and within 2 ms where the whole run was (widened by {@link
     * HostLoad}, skipped when it is too busy to judge). Before the warm-up ran the run's own
     * dispatcher and recorder and the JIT was left quiet just before the clock, the first second
     * was 37 ms off at p99 (the client's event loop late while the compiler took its core).
     */
    @Test
    @Tag("timing")
    void theFirstSecondsGapsAgreeWithTheServersGroundTruth() throws Exception {
        Path truthFile = root.resolve("ground-truth.jsonl");
        Path runDir = root.resolve("first-second");
        Launch run;
        try (SimServer sim = SimServer.start(SimConfig.load(
                null,
                Map.of(
                        "engine",
                        "fixed",
                        "ttftMs",
                        30.0,
                        "itlMs",
                        40.0,
                        "prefillMsPerToken",
                        0.0,
                        "jitter",
                        0.0,
                        "groundTruth",
                        truthFile.toString())))) {
            run = launch(
                    Map.of("LLMLOAD_CDS", "off"),
                    "run",
                    "--url",
                    sim.url(),
                    "--api",
                    "tgi",
                    "--concurrency",
                    "64",
                    "--num-requests",
                    "128",
                    "--input-tokens",
                    "256",
                    "--output-tokens",
                    "64",
                    "--quiet",
                    "--output-dir",
                    runDir.toString());
        } // closing the simulator flushes its log
        assertThat(run.exitCode()).as(run.output()).isZero();

        Map<String, JsonNode> truth = byRequestId(truthFile);
        List<Double> firstSecond = new ArrayList<>();
        List<Double> all = new ArrayList<>();
        for (JsonNode mine : byRequestId(runDir.resolve("requests.jsonl")).values()) {
            JsonNode theirs = truth.get(mine.get("request_id").asText());
            assertThat(theirs)
                    .as("the simulator's line of " + mine.get("request_id"))
                    .isNotNull();
            JsonNode clientTimes = mine.get("token_times_ms");
            JsonNode serverTimes = theirs.get("token_times_ms");
            assertThat(clientTimes).hasSize(64);
            assertThat(serverTimes).hasSize(64);
            double sentMs = mine.get("sent_ms").asDouble();
            for (int i = 1; i < clientTimes.size(); i++) {
                double error = Math.abs(clientTimes.get(i).asDouble()
                        - clientTimes.get(i - 1).asDouble()
                        - (serverTimes.get(i).asDouble()
                                - serverTimes.get(i - 1).asDouble()));
                all.add(error);
                if (sentMs + clientTimes.get(i).asDouble() < 1000) {
                    firstSecond.add(error);
                }
            }
        }
        assertThat(all).hasSize(128 * 63);
        assertThat(firstSecond).isNotEmpty();
        System.out.printf(
                java.util.Locale.ROOT,
                "gap error against the ground truth, 64 streams: first second p99 %.3f"
                        + " ms (%d gaps), whole run p99 %.3f ms (%d gaps), %s%n",
                p99(firstSecond),
                firstSecond.size(),
                p99(all),
                all.size(),
                HostLoad.describe());
        double boundMs = HostLoad.slackMs(2.0);
        // 64 streams of a token every 40 ms from 30 ms on: some 1,400 gaps end in the first second
        // where the simulator keeps time.
        assertThat(firstSecond).hasSizeGreaterThan(1_000);
        // The first second no worse than the whole run: its error is not the start-up's. This is the
        // check that caught the start-up (37 ms then), and it holds on any host.
        assertThat(p99(firstSecond))
                .as("first second's gap error p99 against the whole run's (%.3f ms), %s", p99(all), HostLoad.describe())
                .isLessThanOrEqualTo(p99(all) + boundMs / 2);
        // Within 2 ms is the goal, but the whole run's p99 is the host's steady state as much as the
        // client's: on the 2-vCPU VM 2.1-3.6 ms with the test's own simulator and client on its two
        // cores (docs/performance.md, bench/wire-truth.sh). Where the run as a whole missed it, the
        // first second cannot show it, and the bound is not judged rather than failed.
        assumeTrue(
                p99(all) <= boundMs,
                () -> "the 2 ms bound not judged: the whole run's gap error p99 was %.3f ms on this host (%s)"
                        .formatted(p99(all), HostLoad.describe()));
        assertThat(p99(firstSecond))
                .as("gap error p99 (ms) in the run's first second, " + HostLoad.describe())
                .isLessThanOrEqualTo(boundMs);
    }

    private static double p99(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    }

    private static Map<String, JsonNode> byRequestId(Path jsonl) throws IOException {
        Map<String, JsonNode> byId = new HashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            JsonNode node = JSON.readTree(line);
            byId.put(node.get("request_id").asText(), node);
        }
        return byId;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** When {@code -XX:+PrintCompilation} says {@code method} was first compiled (ms of uptime); infinity if never. */
    private static double compiledAtMs(String log, String method) {
        return log.lines()
                .filter(line -> line.contains(" " + method + " "))
                .mapToDouble(line -> Double.parseDouble(line.strip().split("\\s+")[0]))
                .min()
                .orElse(Double.POSITIVE_INFINITY);
    }

    /** Two requests to the built-in simulator, into {@code name} under the test's folder. */
    private String[] shortRun(String name) {
        return new String[] {
            "run",
            "--num-requests",
            "2",
            "--concurrency",
            "1",
            "--output-tokens",
            "4",
            "--output-dir",
            root.resolve(name).toString()
        };
    }

    private static final String NETTY_PLATFORM = "io.netty.util.internal.PlatformDependent";
    private static final String FIRST_SEND_MARK = "dev.llmload.client.ProcessMark";
    private static final String VOCABULARY_READER = "com.knuddels.jtokkit.EncodingFactory";
    private static final String OBJECT_MAPPER = "com.fasterxml.jackson.databind.ObjectMapper";
    private static final String NETTY_JFR_EVENT = "io.netty.buffer.AllocateBufferEvent";

    private List<Path> archives() throws IOException {
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa"))
                    .toList();
        }
    }

    /**
     * @param output  standard output and error together
     * @param classes the launched JVM's class-loading log (the launcher execs java, so its process
     *                is the launcher's)
     */
    private record Launch(int exitCode, String output, String classes) {

        /** Whether the class-loading log has {@code className} (a whole name, not a prefix). */
        boolean loaded(String className) {
            return loadedAt(className) >= 0;
        }

        /** Where in the class-loading log {@code className} was loaded (a position: later is larger); -1 if never. */
        int loadedAt(String className) {
            return classes.indexOf("] " + className + " source: ");
        }
    }

    private Launch launch(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of("bash", root.resolve("llmload").toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(root, "launch", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("LLMLOAD_CDS");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("LLMLOAD_JAVA_OPTS", "-Xlog:class+load=info:file=" + root.resolve("classes-%p.log"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("./llmload " + String.join(" ", args) + " did not finish in 3 minutes");
        }
        Path classes = root.resolve("classes-" + process.pid() + ".log");
        return new Launch(
                process.exitValue(), Files.readString(log), Files.exists(classes) ? Files.readString(classes) : "");
    }
}
