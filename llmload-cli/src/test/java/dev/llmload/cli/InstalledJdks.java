package dev.llmload.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Java installations of this machine, for tests that run a JVM of a given version: the tests'
 * own and those under /usr/lib/jvm, each once (Debian's names are links to one another), by the
 * feature version their {@code release} file gives.
 */
public final class InstalledJdks {

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(?:1\\.)?(\\d+)");

    /** One installation: its feature version (17, 25; 8 for 1.8) and its {@code java}. */
    public record Jdk(int major, Path java) {}

    private InstalledJdks() {}

    public static List<Jdk> all() throws IOException {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> listed = Files.list(jvms)) {
                listed.sorted().forEach(homes::add);
            }
        }
        List<Path> seen = new ArrayList<>();
        List<Jdk> jdks = new ArrayList<>();
        for (Path home : homes) {
            Path release = home.resolve("release");
            Path java = home.resolve("bin").resolve("java");
            if (!Files.isReadable(release) || !Files.isExecutable(java) || seen.contains(home.toRealPath())) {
                continue;
            }
            seen.add(home.toRealPath());
            Matcher version = VERSION.matcher(Files.readString(release));
            if (version.find()) {
                jdks.add(new Jdk(Integer.parseInt(version.group(1)), java));
            }
        }
        return jdks;
    }

    /** An installation of this feature version, if there is one. */
    public static Optional<Jdk> of(int major) throws IOException {
        return all().stream().filter(jdk -> jdk.major() == major).findFirst();
    }
}
