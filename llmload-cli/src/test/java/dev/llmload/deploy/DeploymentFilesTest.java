package dev.llmload.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.llmload.cli.InstalledJdks;
import dev.llmload.segment.StartAt;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The container image and the Kubernetes manifests that run llmload over many pods
 * (deploy/kubernetes, docs/distributed.md): parsed and checked for what a distributed run needs,
 * then built by kubectl's kustomize and linted by hadolint where those are installed, and given
 * to {@code kubectl apply --dry-run=client} where a cluster answers.
 */
class DeploymentFilesTest {

    private static final Path ROOT = Path.of("..");
    private static final Path KUBERNETES = ROOT.resolve("deploy/kubernetes");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String SEGMENT_ARG = "--segment=auto/N";
    /** Where a Kubernetes Indexed Job's pod finds its index. */
    private static final String INDEX_ANNOTATION = "metadata.annotations['batch.kubernetes.io/job-completion-index']";

    private static final Pattern K8S_VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    @Test
    void everyManifestParses() throws IOException {
        List<Path> files = manifestFiles();
        assertThat(files)
                .extracting(file -> KUBERNETES.relativize(file).toString())
                .contains(
                        "kustomization.yaml",
                        "segments-job.yaml",
                        "merge-job.yaml",
                        "results-pvc.yaml",
                        "results-reader.yaml");
        for (Path file : files) {
            List<JsonNode> documents = documents(file);
            assertThat(documents).as(file.toString()).isNotEmpty();
            for (JsonNode document : documents) {
                assertThat(document.path("apiVersion").asText())
                        .as("%s apiVersion", file)
                        .isNotEmpty();
                assertThat(document.path("kind").asText()).as("%s kind", file).isNotEmpty();
            }
        }
    }

    @Test
    void theSegmentsJobIsIndexedAndEveryPodRunsTheSegmentOfItsIndex() throws IOException {
        JsonNode job = single(KUBERNETES.resolve("segments-job.yaml"));
        assertThat(job.path("kind").asText()).isEqualTo("Job");
        JsonNode spec = job.path("spec");
        assertThat(spec.path("completionMode").asText()).isEqualTo("Indexed");
        assertThat(spec.path("completions").isInt()).isTrue();
        assertThat(spec.path("completions").asInt()).isGreaterThanOrEqualTo(1);
        // A segment run again would start after the shared instant and resend: no retries.
        assertThat(spec.path("backoffLimit").asInt(-1)).isZero();
        assertThat(spec.path("template").path("spec").path("restartPolicy").asText())
                .isEqualTo("Never");

        JsonNode container = container(job, "llmload");
        List<String> args = texts(container.path("args"));
        assertThat(args.getFirst()).isEqualTo("run");
        // The image's ENTRYPOINT has the launcher's flags for every command; the launcher adds more for run.
        String runFlags = String.join(" ", launcherFlagsFor("run"));
        assertThat(runFlags).isNotEmpty();
        assertThat(envValue(container, "JDK_JAVA_OPTIONS")).isEqualTo(runFlags);
        assertThat(args).filteredOn(arg -> arg.startsWith("--segment")).containsExactly(SEGMENT_ARG);
        assertThat(args)
                .contains(
                        "--start-at=$(LLMLOAD_START_AT)",
                        "--output-dir=/results/$(LLMLOAD_RUN)/segment-$(JOB_COMPLETION_INDEX)");
        JsonNode index = env(container, "JOB_COMPLETION_INDEX");
        assertThat(index.path("valueFrom").path("fieldRef").path("fieldPath").asText())
                .isEqualTo(INDEX_ANNOTATION);

        JsonNode volumes = job.path("spec").path("template").path("spec").path("volumes");
        assertThat(claimOf(volumes, mountedAt(container, "/results"))).isEqualTo(pvcName());
    }

    @Test
    void everySegmentServesItsLiveMetricsWhereScrapeConfigsLook() throws IOException {
        JsonNode job = single(KUBERNETES.resolve("segments-job.yaml"));
        JsonNode container = container(job, "llmload");
        List<String> live = texts(container.path("args")).stream()
                .filter(arg -> arg.startsWith("--live-metrics="))
                .toList();
        assertThat(live).hasSize(1);
        String address = live.getFirst().substring("--live-metrics=".length());
        // Every interface of the pod: a bare port (loopback) could not be scraped from outside it.
        assertThat(address).startsWith("0.0.0.0:");
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        JsonNode metricsPort = null;
        for (JsonNode candidate : container.path("ports")) {
            if (candidate.path("name").asText().equals("metrics")) {
                metricsPort = candidate;
            }
        }
        assertThat(metricsPort).as("a container port named metrics").isNotNull();
        assertThat(metricsPort.path("containerPort").asInt()).isEqualTo(port);
        JsonNode annotations =
                job.path("spec").path("template").path("metadata").path("annotations");
        assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
        assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo(Integer.toString(port));
        assertThat(annotations.path("prometheus.io/path").asText()).isEqualTo("/metrics");

        // The operator's PodMonitor selects the segment pods by their labels and that port's name.
        JsonNode monitor = single(KUBERNETES.resolve("podmonitor.yaml"));
        assertThat(monitor.path("kind").asText()).isEqualTo("PodMonitor");
        JsonNode podLabels = job.path("spec").path("template").path("metadata").path("labels");
        monitor.path("spec")
                .path("selector")
                .path("matchLabels")
                .properties()
                .forEach(label -> assertThat(podLabels.path(label.getKey()).asText())
                        .as("pod label %s", label.getKey())
                        .isEqualTo(label.getValue().asText()));
        JsonNode endpoint = monitor.path("spec").path("podMetricsEndpoints").get(0);
        assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
    }

    @Test
    void theNumberOfSegmentsIsWrittenOnceAndCopiedByTheKustomization() throws IOException {
        // In the sources, the only count of segments is the segments Job's spec.completions ...
        List<String> places = new ArrayList<>();
        for (Path file : manifestFiles()) {
            for (JsonNode document : documents(file)) {
                collectSegmentCounts(document, KUBERNETES.relativize(file) + ":", places);
            }
        }
        assertThat(places).containsExactly("segments-job.yaml:/spec/completions");

        // ... which kustomization.yaml copies into spec.parallelism and the --segment argument.
        JsonNode kustomization = single(KUBERNETES.resolve("kustomization.yaml"));
        assertThat(texts(kustomization.path("resources"))).contains("segments-job.yaml", "merge-job.yaml");
        JsonNode replacement = null;
        for (JsonNode candidate : kustomization.path("replacements")) {
            JsonNode source = candidate.path("source");
            if (source.path("kind").asText().equals("Job")
                    && source.path("name").asText().equals("llmload-segments")
                    && source.path("fieldPath").asText().equals("spec.completions")) {
                replacement = candidate;
            }
        }
        assertThat(replacement)
                .as("a replacement from the segments Job's spec.completions")
                .isNotNull();
        boolean parallelism = false;
        boolean argument = false;
        for (JsonNode target : replacement.path("targets")) {
            assertThat(target.path("select").path("name").asText()).isEqualTo("llmload-segments");
            List<String> paths = texts(target.path("fieldPaths"));
            if (paths.contains("spec.parallelism")) {
                parallelism = target.path("options").path("create").asBoolean();
            }
            if (paths.contains("spec.template.spec.containers.[name=llmload].args.[=" + SEGMENT_ARG + "]")) {
                argument = target.path("options").path("delimiter").asText().equals("/")
                        && target.path("options").path("index").asInt(-1) == 1;
            }
        }
        assertThat(parallelism).as("parallelism created from completions").isTrue();
        assertThat(argument)
                .as("N after the '/' of " + SEGMENT_ARG + " replaced by completions")
                .isTrue();
    }

    @Test
    void theMergeJobWaitsSuspendedAndMergesEverySegmentOfTheRunWithTheImagesJvmFlags() throws IOException {
        JsonNode job = single(KUBERNETES.resolve("merge-job.yaml"));
        assertThat(job.path("kind").asText()).isEqualTo("Job");
        assertThat(job.path("spec").path("suspend").asBoolean()).isTrue();
        JsonNode container = container(job, "llmload");
        assertThat(texts(container.path("command"))).containsExactly("/bin/sh", "-c");
        List<String> script =
                List.of(texts(container.path("args")).getFirst().trim().split("\\s+"));
        int jar = script.indexOf("-jar");
        assertThat(script.getFirst()).isEqualTo("exec");
        assertThat(script.subList(1, jar))
                .isEqualTo(dockerEntrypoint().subList(0, dockerEntrypoint().indexOf("-jar")));
        assertThat(script.subList(jar, script.size()))
                .containsExactly(
                        "-jar",
                        "/opt/llmload/llmload.jar",
                        "merge",
                        "\"/results/$LLMLOAD_RUN/merged\"",
                        "\"/results/$LLMLOAD_RUN\"/segment-*");
        JsonNode volumes = job.path("spec").path("template").path("spec").path("volumes");
        assertThat(claimOf(volumes, mountedAt(container, "/results"))).isEqualTo(pvcName());
    }

    @Test
    void theResultsVolumeIsSharedByPodsOnManyNodes() throws IOException {
        JsonNode claim = single(KUBERNETES.resolve("results-pvc.yaml"));
        assertThat(claim.path("kind").asText()).isEqualTo("PersistentVolumeClaim");
        assertThat(texts(claim.path("spec").path("accessModes"))).containsExactly("ReadWriteMany");
        JsonNode reader = single(KUBERNETES.resolve("results-reader.yaml"));
        JsonNode container = reader.path("spec").path("containers").get(0);
        String claimName = claimOf(reader.path("spec").path("volumes"), mountedAt(container, "/results"));
        assertThat(claimName).isEqualTo(pvcName());
    }

    @Test
    void theDockerfileRunsTheJarOnAJre21OrNewerAsAnUnprivilegedUserWithTheLaunchersFlags() throws IOException {
        List<String> lines = dockerfileLines();
        String from = lines.stream()
                .filter(line -> line.startsWith("FROM "))
                .findFirst()
                .orElseThrow();
        Matcher image = Pattern.compile("FROM \\S+:(\\d+)[-.]\\S*jre\\S*").matcher(from);
        assertThat(image.matches()).as(from).isTrue();
        assertThat(Integer.parseInt(image.group(1))).isGreaterThanOrEqualTo(21);
        assertThat(lines).contains("COPY llmload-cli/target/llmload.jar /opt/llmload/llmload.jar");
        String user = lines.stream()
                .filter(line -> line.startsWith("USER "))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(user.substring(5).split(":")[0]).isNotIn("root", "0");

        List<String> entrypoint = dockerEntrypoint();
        assertThat(entrypoint.getFirst()).isEqualTo("java");
        assertThat(entrypoint.subList(entrypoint.size() - 2, entrypoint.size()))
                .containsExactly("-jar", "/opt/llmload/llmload.jar");
        assertThat(entrypoint).containsSubsequence(launcherJvmFlags());
        // the build context holds the jar only
        assertThat(Files.readAllLines(ROOT.resolve(".dockerignore"))).contains("*", "!llmload-cli/target/llmload.jar");
    }

    /**
     * Every JVM flag the image passes (its ENTRYPOINT's, and the segments' JDK_JAVA_OPTIONS) is
     * taken without a word by each Java the Dockerfile claims, where one of that version is
     * installed: its own JRE's version, and 21, the oldest that runs the jar, without the flags the
     * Dockerfile says to leave out below 25. A flag a release removed, or made experimental,
     * stops the JVM; a deprecated one warns.
     */
    @ParameterizedTest
    @ValueSource(ints = {21, 25})
    @Tag("process")
    void theImagesJvmFlagsAreTakenSilentlyByEachJavaTheDockerfileClaims(int major) throws Exception {
        String from = dockerfileLines().stream()
                .filter(line -> line.startsWith("FROM "))
                .findFirst()
                .orElseThrow();
        Matcher image = Pattern.compile("FROM \\S+:(\\d+)[-.]\\S*").matcher(from);
        assertThat(image.matches()).as(from).isTrue();
        int imageJre = Integer.parseInt(image.group(1));
        assertThat(imageJre).as("the image's JRE is one this test checks").isEqualTo(25);
        List<String> flags =
                new ArrayList<>(dockerEntrypoint().subList(1, dockerEntrypoint().indexOf("-jar")));
        flags.addAll(List.of(
                envValue(container(single(KUBERNETES.resolve("segments-job.yaml")), "llmload"), "JDK_JAVA_OPTIONS")
                        .split("\\s+")));
        if (major < imageJre) {
            assertThat(dockerfileLines())
                    .anyMatch(line -> line.contains("An image on a JRE of 21 to 24 leaves that " + "flag out"));
            flags.remove("-XX:+UseCompactObjectHeaders");
        }
        Optional<InstalledJdks.Jdk> jdk = InstalledJdks.of(major);
        assumeTrue(
                jdk.isPresent(),
                "no Java " + major + " is installed (the tests' own or under /usr/lib/jvm), so "
                        + "the image's JVM flags are not tried on " + major + " here");

        List<String> command = new ArrayList<>(List.of(jdk.get().java().toString()));
        command.addAll(flags);
        command.add("-version");
        Result result = run(command);

        assertThat(result.exitCode()).as("%s\n%s", command, result.output()).isZero();
        assertThat(result.output().toLowerCase(java.util.Locale.ROOT))
                .as("%s\n%s", command, result.output())
                .doesNotContain("warning", "unrecognized", "obsolete", "deprecated", "ignoring option");
    }

    @Test
    @Tag("process")
    void hadolintFindsNothingInTheDockerfile() throws Exception {
        Optional<Path> hadolint = onPath("hadolint");
        assumeTrue(
                hadolint.isPresent(),
                "hadolint is not installed (it has no Debian package; "
                        + "https://github.com/hadolint/hadolint/releases), so the Dockerfile is not linted here");
        Result result = run(
                List.of(hadolint.get().toString(), ROOT.resolve("Dockerfile").toString()));
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @Test
    @Tag("process")
    void kubectlBuildsTheKustomizationWithNCopiedAndEveryVariableDefined() throws Exception {
        Optional<Path> kubectl = onPath("kubectl");
        assumeTrue(kubectl.isPresent(), "kubectl is not installed, so the kustomization is not built here");
        Result version = run(List.of(kubectl.get().toString(), "version", "--client", "-o", "json"));
        String kustomize = version.exitCode() == 0
                ? new ObjectMapper()
                        .readTree(version.output().substring(version.output().indexOf('{')))
                        .path("kustomizeVersion")
                        .asText("")
                : "";
        Matcher major = Pattern.compile("v(\\d+)\\..*").matcher(kustomize);
        assumeTrue(
                major.matches() && Integer.parseInt(major.group(1)) >= 5,
                (kustomize.isEmpty()
                                ? "kubectl names no built-in kustomize version (kubectl before 1.24, such as Debian's kubernetes-client"
                                        + " 1.20, embeds kustomize v2)"
                                : "kubectl's built-in kustomize is " + kustomize)
                        + "; deploy/kubernetes needs kustomize v5 (kubectl 1.27 or newer) for its replacements");

        Result built = run(List.of(kubectl.get().toString(), "kustomize", KUBERNETES.toString()));
        assertThat(built.exitCode()).as(built.output()).isZero();
        List<JsonNode> objects = documents(built.output());
        JsonNode segments = named(objects, "Job", "llmload-segments");
        int n = segments.path("spec").path("completions").asInt();
        assertThat(segments.path("spec").path("parallelism").isInt()).isTrue();
        assertThat(segments.path("spec").path("parallelism").asInt()).isEqualTo(n);
        JsonNode container = container(segments, "llmload");
        assertThat(texts(container.path("args")))
                .filteredOn(arg -> arg.startsWith("--segment"))
                .containsExactly("--segment=auto/" + n);

        // Kubernetes leaves a $(VAR) it cannot resolve as it is: every one must be defined.
        JsonNode config = named(objects, "ConfigMap", "llmload-run");
        Set<String> defined = new HashSet<>();
        config.path("data").fieldNames().forEachRemaining(defined::add);
        assertThat(defined).contains("LLMLOAD_RUN", "LLMLOAD_START_AT", "LLMLOAD_URL");
        for (JsonNode variable : container.path("env")) {
            defined.add(variable.path("name").asText());
        }
        for (String arg : texts(container.path("args"))) {
            Matcher reference = K8S_VARIABLE.matcher(arg);
            while (reference.find()) {
                assertThat(defined).as("%s in %s", reference.group(1), arg).contains(reference.group(1));
            }
        }
        // The example start instant is one that --start-at reads.
        String startAt = config.path("data").path("LLMLOAD_START_AT").asText();
        assertThat(StartAt.parse(startAt, Duration::parse)).isInstanceOf(StartAt.At.class);

        JsonNode merge = named(objects, "Job", "llmload-merge");
        assertThat(container(merge, "llmload").path("image").asText())
                .isEqualTo(container.path("image").asText());
        assertThat(merge.path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("envFrom")
                        .get(0)
                        .path("configMapRef")
                        .path("name")
                        .asText())
                .isEqualTo("llmload-run");
    }

    @Test
    @Tag("process")
    void kubectlAcceptsTheManifestsInAClientSideDryRun() throws Exception {
        Optional<Path> kubectl = onPath("kubectl");
        assumeTrue(kubectl.isPresent(), "kubectl is not installed");
        // kubectl apply --dry-run=client still asks the API server which kinds exist (discovery),
        // so without a cluster it cannot run at all.
        Result cluster = run(List.of(kubectl.get().toString(), "version", "-o", "json", "--request-timeout=5s"));
        assumeTrue(
                cluster.exitCode() == 0 && cluster.output().contains("\"serverVersion\""),
                "no Kubernetes API server answers (kubectl apply --dry-run=client needs one for discovery); "
                        + "the other tests check the manifests offline");
        Result kustomized =
                run(List.of(kubectl.get().toString(), "apply", "--dry-run=client", "-k", KUBERNETES.toString()));
        assertThat(kustomized.exitCode()).as(kustomized.output()).isZero();
        Result plain = run(List.of(
                kubectl.get().toString(),
                "apply",
                "--dry-run=client",
                "-f",
                KUBERNETES.resolve("results-pvc.yaml").toString(),
                "-f",
                KUBERNETES.resolve("results-reader.yaml").toString()));
        assertThat(plain.exitCode()).as(plain.output()).isZero();
    }

    /** Every place in a manifest that states a number of segments (or, wrongly, a second copy of it). */
    private static void collectSegmentCounts(JsonNode node, String path, List<String> places) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String where = path + "/" + field.getKey();
                if ((field.getKey().equals("completions") || field.getKey().equals("parallelism"))
                        && field.getValue().isValueNode()) {
                    places.add(where);
                }
                collectSegmentCounts(field.getValue(), where, places);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectSegmentCounts(node.get(i), path + "/" + i, places);
            }
        } else if (node.isTextual()
                && node.asText().matches("(?s).*(auto|\\d+)/\\d+.*")
                && node.asText().contains("segment")
                && !node.asText().contains("segment-")) {
            places.add(path);
        }
    }

    /** The launcher's default JVM flags: its {@code options=(...)} line, less what it fills in from variables. */
    private static List<String> launcherJvmFlags() throws IOException {
        String line = Files.readAllLines(ROOT.resolve("llmload")).stream()
                .filter(l -> l.startsWith("options=("))
                .findFirst()
                .orElseThrow();
        List<String> flags = new ArrayList<>();
        for (String word : line.substring("options=(".length(), line.lastIndexOf(')'))
                .trim()
                .split("\\s+")) {
            if (!word.startsWith("${")) {
                flags.add(word);
            }
        }
        assertThat(flags).contains("-XX:+UseZGC");
        return flags;
    }

    /** What the launcher adds to its default flags for {@code command}: its {@code options+=(...)} line under that case. */
    private static List<String> launcherFlagsFor(String command) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("llmload"));
        for (String line : lines) {
            String trimmed = line.trim();
            int paren = trimmed.indexOf(") options+=(");
            if (paren > 0
                    && List.of(trimmed.substring(0, paren).split("\\s*\\|\\s*")).contains(command)) {
                String flags = trimmed.substring(paren + ") options+=(".length(), trimmed.lastIndexOf(')'));
                // A flag with a pattern in it is quoted there, so that the shell leaves its '*' alone.
                return List.of(flags.trim().split("\\s+")).stream()
                        .map(flag -> flag.replace("'", ""))
                        .toList();
            }
        }
        return List.of();
    }

    private static String envValue(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.path("value").asText();
            }
        }
        return null;
    }

    private static List<String> dockerEntrypoint() throws IOException {
        String line = dockerfileLines().stream()
                .filter(l -> l.startsWith("ENTRYPOINT "))
                .findFirst()
                .orElseThrow();
        return new ObjectMapper()
                .readValue(line.substring("ENTRYPOINT ".length()), new TypeReference<List<String>>() {});
    }

    private static List<String> dockerfileLines() throws IOException {
        return Files.readAllLines(ROOT.resolve("Dockerfile"));
    }

    private static String pvcName() throws IOException {
        return single(KUBERNETES.resolve("results-pvc.yaml"))
                .path("metadata")
                .path("name")
                .asText();
    }

    private static String mountedAt(JsonNode container, String path) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("mountPath").asText().equals(path)) {
                return mount.path("name").asText();
            }
        }
        throw new AssertionError("nothing mounted at " + path);
    }

    private static String claimOf(JsonNode volumes, String volume) {
        for (JsonNode candidate : volumes) {
            if (candidate.path("name").asText().equals(volume)) {
                return candidate.path("persistentVolumeClaim").path("claimName").asText();
            }
        }
        throw new AssertionError("no volume " + volume);
    }

    private static JsonNode container(JsonNode workload, String name) {
        for (JsonNode container :
                workload.path("spec").path("template").path("spec").path("containers")) {
            if (container.path("name").asText().equals(name)) {
                return container;
            }
        }
        throw new AssertionError("no container " + name);
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode variable : container.path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no variable " + name);
    }

    private static JsonNode named(List<JsonNode> objects, String kind, String name) {
        return objects.stream()
                .filter(o -> o.path("kind").asText().equals(kind)
                        && o.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.walk(KUBERNETES)) {
            return files.filter(file -> file.toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
    }

    private static JsonNode single(Path file) throws IOException {
        List<JsonNode> documents = documents(file);
        assertThat(documents).as(file.toString()).hasSize(1);
        return documents.getFirst();
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        return documents(Files.readString(file));
    }

    private static List<JsonNode> documents(String yaml) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (var values = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (values.hasNext()) {
                JsonNode document = values.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
        }
        return documents;
    }

    private static Optional<Path> onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, command))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private record Result(int exitCode, String output) {}

    /** Runs a tool with its output in a file, killed after a minute so the test never hangs. */
    private static Result run(List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("llmload-deploy-", ".txt");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " took longer than 60 s");
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
