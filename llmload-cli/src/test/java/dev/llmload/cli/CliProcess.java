package dev.llmload.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@code llmload} as a separate JVM on the test class path, as a user's shell would. */
final class CliProcess {

    private CliProcess() {}

    static Process start(Path outputLog, String... args) throws IOException {
        return start(null, outputLog, args);
    }

    /** @param workingDirectory where it runs (relative paths, such as default run directories); null: here */
    static Process start(Path workingDirectory, Path outputLog, String... args) throws IOException {
        return start(List.of(), workingDirectory, outputLog, args);
    }

    /** @param jvmOptions options for the JVM itself ({@code -Dname=value}, a heap limit {@code -Xmx16m}), before the class path */
    static Process start(List<String> jvmOptions, Path workingDirectory, Path outputLog, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(workingDirectory == null ? null : workingDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(outputLog.toFile())
                .start();
    }

    /**
     * Starts it under a resource limit set by bash's {@code ulimit}, e.g. {@code -f 96}: every write
     * past 96 KiB fails part-way, as a write to a full disk does, with the operating system's error.
     */
    static Process startUnderLimit(Path outputLog, String ulimit, String... args) throws IOException {
        StringBuilder command = new StringBuilder("ulimit ").append(ulimit).append(" && exec");
        command.append(' ')
                .append(quoted(ProcessHandle.current().info().command().orElse("java")));
        command.append(" -cp ").append(quoted(System.getProperty("java.class.path")));
        command.append(' ').append(Main.class.getName());
        for (String arg : args) {
            command.append(' ').append(quoted(arg));
        }
        return new ProcessBuilder("bash", "-c", command.toString())
                .redirectErrorStream(true)
                .redirectOutput(outputLog.toFile())
                .start();
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** Sends a signal by name (INT, TERM) the way a shell's kill does. */
    /**
     * Whether this JVM started with SIGINT ignored (Linux: the {@code SigIgn} mask of
     * /proc/self/status); the processes it starts inherit that. False where it cannot be told.
     */
    static boolean ignoresSigint() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(
                        line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & (1L << (2 - 1))) != 0; // SIGINT is signal 2, bit 1 of the mask
            }
        }
        return false;
    }

    static void signal(Process process, String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " failed");
        }
    }
}
