package dev.llmload.report.html;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Drives the system's headless Chromium (Debian package {@code chromium}) for the report tests:
 * each call is a fresh browser with a fresh profile and no network features, so a page that tried
 * to load anything would fail rather than quietly fetch it.
 */
final class HeadlessChromium {

    static final String MISSING =
            "headless Chromium not found; install the Debian package: apt-get install -y chromium";

    private final Path binary;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
    }

    static Optional<HeadlessChromium> find() {
        return Stream.of("chromium", "chromium-browser", "google-chrome")
                .flatMap(name -> Stream.of(
                                System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
                        .map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable)
                .findFirst()
                .map(HeadlessChromium::new);
    }

    /** The page's DOM after its scripts ran (virtual time lets its timers fire without waiting). */
    String dumpDom(Path page) throws IOException, InterruptedException {
        return run(page, List.of("--virtual-time-budget=5000", "--dump-dom"), null);
    }

    void screenshot(Path page, Path png) throws IOException, InterruptedException {
        run(
                page,
                List.of(
                        "--virtual-time-budget=5000",
                        "--hide-scrollbars",
                        "--window-size=1400,2400",
                        "--screenshot=" + png.toAbsolutePath()),
                png);
    }

    private String run(Path page, List<String> action, Path expected) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("llmload-chromium");
        Path out = Files.createTempFile("llmload-chromium", ".out");
        Path err = Files.createTempFile("llmload-chromium", ".err");
        try {
            List<String> command = new ArrayList<>(List.of(
                    binary.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-extensions",
                    "--mute-audio",
                    "--user-data-dir=" + profile));
            command.addAll(action);
            command.add(page.toUri().toString());
            Process process = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("chromium did not finish within 90 s: " + Files.readString(err));
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (process.exitValue() != 0 || (expected != null && !Files.exists(expected))) {
                throw new IOException("chromium exited " + process.exitValue() + ": " + Files.readString(err));
            }
            return stdout;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path :
                    paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
