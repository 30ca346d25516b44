package dev.llmload.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A concurrency above the open-file limit is refused up front in one line, not blamed on the server. */
class OpenFileLimitTest {

    @TempDir
    Path dir;

    @Test
    void theSoftLimitIsReadFromProcLimits() {
        String limits = """
                Limit                     Soft Limit           Hard Limit           Units
                Max processes             63398                63398                processes
                Max open files            1024                 524288               files
                Max locked memory         8388608              8388608              bytes
                """;
        assertThat(OpenFileLimit.parseLimit(limits)).isEqualTo(OptionalLong.of(1024));
        assertThat(OpenFileLimit.parseLimit(limits.replace("1024  ", "unlimited")))
                .isEmpty();
        assertThat(OpenFileLimit.parseLimit("nothing here")).isEmpty();
    }

    @Test
    @Tag("process")
    void aConcurrencyAboveUlimitIsRefusedBeforeAnyRequest() throws Exception {
        String console = underUlimit512("run", "--concurrency", "100000", "--num-requests", "10");
        assertThat(console).contains("--concurrency 100000 needs about 100128 open files");
    }

    /** A sweep is refused for its largest point before its first one runs. */
    @Test
    @Tag("process")
    void aSweepPointAboveUlimitIsRefusedBeforeTheFirstPoint() throws Exception {
        String console = underUlimit512("sweep", "--concurrency", "1,4,2000", "--num-requests", "10");
        assertThat(console).contains("--concurrency 2000 needs about 2128 open files");
    }

    /** Runs {@code llmload ARGS} under {@code ulimit -n 512} against a closed port; its one line of output. */
    private String underUlimit512(String... args) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/limits")), "no /proc/self/limits: not Linux");
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "no /bin/bash to set ulimit -n");
        Path log = dir.resolve("console.log");
        List<String> command = new ArrayList<>(List.of(
                "/bin/bash",
                "-c",
                "ulimit -n 512 && exec \"$@\"",
                "run-limited",
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        command.addAll(List.of(
                "--url",
                "http://127.0.0.1:9",
                "--output-dir",
                dir.resolve("out").toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String console = Files.readString(log);
        assertThat(process.exitValue()).as(console).isEqualTo(Main.EXIT_USAGE);
        assertThat(console.strip().lines()).as(console).hasSize(1);
        assertThat(console).contains("may open 512 (ulimit -n)").doesNotContain("connection refused");
        assertThat(dir.resolve("out")).doesNotExist();
        return console;
    }
}
