package dev.llmload.segment;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks the operating system how well this host's wall clock is synchronised, the way an operator
 * would: {@code chronyc -n -c tracking}, then {@code adjtimex --print}, then
 * {@code timedatectl show -p NTPSynchronized}; the first that answers is the source, and the
 * kernel's clock source is read from /sys alongside. Each command runs with its output in a
 * temporary file and is killed, with its children, after the timeout, so the probe never hangs;
 * a command that is absent, fails or says nothing usable is skipped, and the reason goes into the
 * detail. In a container none of them usually works (no time daemon in the pod), and the answer
 * is {@link ClockSync.Synchronised#UNKNOWN}.
 *
 * <p>Commands are looked up in the given directories rather than by the child's PATH (Java looks
 * executables up in the parent's PATH), so a test can give a directory of stand-ins or an empty one.
 * Stateless; blocks the calling thread for up to three timeouts.
 */
public final class ClockSyncProbe {

    /** The kernel's STA_UNSYNC status bit: the clock is not synchronised. */
    private static final int STA_UNSYNC = 0x40;
    /** adjtimex(2)'s return value TIME_ERROR (also called TIME_BAD): the clock is not synchronised. */
    private static final int TIME_ERROR = 5;

    private static final int MAX_OUTPUT_BYTES = 64 * 1024;
    private static final Pattern NUMBERED_LINE = Pattern.compile("\\s*([a-z_ ]+?)\\s*[:=]\\s*(-?\\d+)\\s*");

    private final List<Path> searchPath;
    private final Duration timeout;
    private final Path clocksourceFile;

    /**
     * @param searchPath      the directories to look the commands up in, in order
     * @param timeout         how long each command may take
     * @param clocksourceFile the sysfs file naming the kernel's clock source
     */
    public ClockSyncProbe(List<Path> searchPath, Duration timeout, Path clocksourceFile) {
        this.searchPath = List.copyOf(searchPath);
        this.timeout = timeout;
        this.clocksourceFile = clocksourceFile;
    }

    /** The probe of this host: PATH, then /usr/sbin and /sbin (where adjtimex lives), 2 s per command. */
    public static ClockSyncProbe ofThisHost() {
        List<Path> path = new ArrayList<>();
        String variable = System.getenv("PATH");
        if (variable != null) {
            for (String directory : variable.split(File.pathSeparator)) {
                if (!directory.isEmpty()) {
                    path.add(Path.of(directory));
                }
            }
        }
        path.add(Path.of("/usr/sbin"));
        path.add(Path.of("/sbin"));
        return new ClockSyncProbe(
                path,
                Duration.ofSeconds(2),
                Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource"));
    }

    /** Asks the sources in order; never throws. */
    public ClockSync probe() {
        String clocksource = readClocksource();
        List<String> skipped = new ArrayList<>();
        ClockSync answer =
                ask(skipped, "chronyc", List.of("-n", "-c", "tracking"), output -> fromChrony(output, clocksource));
        if (answer == null) {
            answer = ask(skipped, "adjtimex", List.of("--print"), output -> fromAdjtimex(output, clocksource));
        }
        if (answer == null) {
            answer = ask(
                    skipped,
                    "timedatectl",
                    List.of("show", "-p", "NTPSynchronized"),
                    output -> fromTimedatectl(output, clocksource));
        }
        if (answer != null) {
            return answer;
        }
        return new ClockSync(
                ClockSync.Source.NONE,
                ClockSync.Synchronised.UNKNOWN,
                null,
                null,
                clocksource,
                "the OS did not say: " + String.join("; ", skipped));
    }

    private ClockSync ask(
            List<String> skipped, String command, List<String> arguments, Function<String, ClockSync> reading) {
        Path executable = find(command);
        if (executable == null) {
            skipped.add(command + " absent");
            return null;
        }
        Path output = null;
        try {
            output = Files.createTempFile("llmload-clock-", ".txt");
            List<String> commandLine = new ArrayList<>();
            commandLine.add(executable.toString());
            commandLine.addAll(arguments);
            Process process = new ProcessBuilder(commandLine)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                skipped.add(command + " gave no answer within " + timeout.toMillis() + " ms");
                return null;
            }
            String text = readBounded(output);
            if (process.exitValue() != 0) {
                skipped.add(command + " exited with " + process.exitValue() + firstLine(text));
                return null;
            }
            ClockSync answer = reading.apply(text);
            if (answer == null) {
                skipped.add(command + " said nothing readable" + firstLine(text));
            }
            return answer;
        } catch (IOException e) {
            skipped.add(command + " could not be run: " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            skipped.add(command + " interrupted");
            return null;
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // a leftover temporary file in the temporary directory is harmless
                }
            }
        }
    }

    private Path find(String command) {
        for (Path directory : searchPath) {
            Path candidate = directory.resolve(command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static String readBounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
        }
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.isEmpty() ? "" : ": " + printable(line);
    }

    /** Command output is shown in the report: control characters out, and at most 200 characters. */
    private static String printable(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", " ").strip();
        return clean.length() <= 200 ? clean : clean.substring(0, 200) + "...";
    }

    private String readClocksource() {
        try (InputStream in = Files.newInputStream(clocksourceFile)) {
            String name = printable(new String(in.readNBytes(256), StandardCharsets.UTF_8));
            return name.isEmpty() ? null : name;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Reads {@code chronyc -c tracking}: one line of 14 comma-separated fields, of which the 5th is
     * chrony's correction in seconds (positive when the clock is slow, so the offset is its
     * negation), the 11th and 12th root delay and root dispersion in seconds, and the 14th the leap
     * status ({@code Not synchronised} when it is not). The error bound is chrony's own:
     * |offset| + root dispersion + root delay / 2.
     *
     * @return null when no line has that shape
     */
    static ClockSync fromChrony(String output, String clocksource) {
        for (String line : output.lines().toList()) {
            String[] fields = line.strip().split(",", -1);
            if (fields.length != 14) {
                continue;
            }
            double correction;
            double rootDelay;
            double rootDispersion;
            try {
                correction = Double.parseDouble(fields[4]);
                rootDelay = Double.parseDouble(fields[10]);
                rootDispersion = Double.parseDouble(fields[11]);
            } catch (NumberFormatException e) {
                continue;
            }
            if (!Double.isFinite(correction) || !Double.isFinite(rootDelay) || !Double.isFinite(rootDispersion)) {
                continue;
            }
            String leap = fields[13].strip();
            String detail = "chronyc: " + printable(leap) + ", stratum " + printable(fields[2]) + ", reference "
                    + printable(fields[1]);
            if (leap.equalsIgnoreCase("Not synchronised")) {
                return new ClockSync(
                        ClockSync.Source.CHRONY, ClockSync.Synchronised.NO, null, null, clocksource, detail);
            }
            long offsetNanos = Math.round(-correction * 1e9);
            long boundNanos = Math.round((Math.abs(correction) + rootDispersion + rootDelay / 2) * 1e9);
            return new ClockSync(
                    ClockSync.Source.CHRONY, ClockSync.Synchronised.YES, offsetNanos, boundNanos, clocksource, detail);
        }
        return null;
    }

    /**
     * Reads {@code adjtimex --print}: lines {@code name: number}, of which {@code status} (the
     * STA_UNSYNC bit, 0x40, set when the clock is not synchronised) and {@code maxerror} (the
     * kernel's maximum error in microseconds) are used; the {@code return value} line (5 when not
     * synchronised) stands in when status is missing. The kernel's own offset field is the part of
     * a correction still to be slewed, not the clock's error, so the offset stays unknown.
     *
     * @return null without a status or return value
     */
    static ClockSync fromAdjtimex(String output, String clocksource) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : output.lines().toList()) {
            Matcher numbered = NUMBERED_LINE.matcher(line);
            if (numbered.matches()) {
                try {
                    values.put(numbered.group(1), Long.parseLong(numbered.group(2)));
                } catch (NumberFormatException e) {
                    // a number too long for a long is no kernel value; leave it out
                }
            }
        }
        Long status = values.get("status");
        Long returned = values.get("return value");
        if (status == null && returned == null) {
            return null;
        }
        boolean synchronised = status != null ? (status & STA_UNSYNC) == 0 : returned != TIME_ERROR;
        Long maxErrorMicros = values.get("maxerror");
        String detail =
                "adjtimex: " + (status != null ? "status 0x" + Long.toHexString(status) : "return value " + returned)
                        + (maxErrorMicros != null ? ", maxerror " + maxErrorMicros + " us" : "");
        Long bound = synchronised && maxErrorMicros != null && maxErrorMicros >= 0 ? maxErrorMicros * 1_000 : null;
        return new ClockSync(
                ClockSync.Source.ADJTIMEX,
                synchronised ? ClockSync.Synchronised.YES : ClockSync.Synchronised.NO,
                null,
                bound,
                clocksource,
                detail);
    }

    /**
     * Reads {@code timedatectl show -p NTPSynchronized}: {@code NTPSynchronized=yes} or {@code =no}.
     *
     * @return null without that line
     */
    static ClockSync fromTimedatectl(String output, String clocksource) {
        for (String line : output.lines().toList()) {
            String trimmed = line.strip();
            if (trimmed.equals("NTPSynchronized=yes") || trimmed.equals("NTPSynchronized=no")) {
                boolean yes = trimmed.endsWith("yes");
                return new ClockSync(
                        ClockSync.Source.TIMEDATECTL,
                        yes ? ClockSync.Synchronised.YES : ClockSync.Synchronised.NO,
                        null,
                        null,
                        clocksource,
                        "timedatectl: " + trimmed);
            }
        }
        return null;
    }
}
