package dev.llmload.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("process")
@Tag("timing")
class ClockSyncProbeTest {

    /** chronyc -n -c tracking of a synchronised host: 12 µs fast, root delay 400 µs, root dispersion 100 µs. */
    private static final String CHRONY_SYNCED =
            "A9FEA97B,169.254.169.123,3,1764583200.123456789,-0.000012000,0.000003000,0.000020000,"
                    + "-11.234,0.001,0.050,0.000400000,0.000100000,64.2,Normal\n";

    private static final String CHRONY_UNSYNCED =
            "00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,"
                    + "1.000000000,1.000000000,0.0,Not synchronised\n";
    /** adjtimex --print; status 8193 is 0x2001 (STA_PLL | STA_NANO), without STA_UNSYNC. */
    private static final String ADJTIMEX_SYNCED = """
                     mode: 0
                   offset: -1386
                frequency: 3441526
                 maxerror: 16000
                 esterror: 0
                   status: 8193
            time_constant: 7
                precision: 1
                tolerance: 32768000
                     tick: 10000
                 raw time:  1764583200s 123456789us = 1764583200.123456789
             return value = 0
            """;

    @Test
    void chronyGivesTheOffsetAndItsOwnBound() {
        ClockSync sync = ClockSyncProbe.fromChrony(CHRONY_SYNCED, "tsc");
        assertThat(sync.source()).isEqualTo(ClockSync.Source.CHRONY);
        assertThat(sync.synchronised()).isEqualTo(ClockSync.Synchronised.YES);
        // correction −12 µs means the clock is 12 µs fast: offset +12 µs
        assertThat(sync.offsetNanos()).isEqualTo(12_000L);
        // |offset| + root dispersion + root delay / 2 = 12 + 100 + 200 µs
        assertThat(sync.errorBoundNanos()).isEqualTo(312_000L);
        assertThat(sync.clocksource()).isEqualTo("tsc");
        assertThat(sync.detail()).isEqualTo("chronyc: Normal, stratum 3, reference 169.254.169.123");

        ClockSync unsynced = ClockSyncProbe.fromChrony(CHRONY_UNSYNCED, null);
        assertThat(unsynced.synchronised()).isEqualTo(ClockSync.Synchronised.NO);
        assertThat(unsynced.offsetNanos()).isNull();
        assertThat(unsynced.errorBoundNanos()).isNull();

        assertThat(ClockSyncProbe.fromChrony("506 Cannot talk to daemon\n", null))
                .isNull();
        assertThat(ClockSyncProbe.fromChrony("a,b,c,d,x,f,g,h,i,j,k,l,m,Normal\n", null))
                .isNull();
    }

    @Test
    void adjtimexGivesTheKernelsStatusAndMaximumError() {
        ClockSync sync = ClockSyncProbe.fromAdjtimex(ADJTIMEX_SYNCED, null);
        assertThat(sync.source()).isEqualTo(ClockSync.Source.ADJTIMEX);
        assertThat(sync.synchronised()).isEqualTo(ClockSync.Synchronised.YES);
        assertThat(sync.offsetNanos()).isNull();
        assertThat(sync.errorBoundNanos()).isEqualTo(16_000_000L);
        assertThat(sync.detail()).isEqualTo("adjtimex: status 0x2001, maxerror 16000 us");

        // 0x2041: STA_UNSYNC set
        ClockSync unsynced = ClockSyncProbe.fromAdjtimex(ADJTIMEX_SYNCED.replace("8193", "8257"), null);
        assertThat(unsynced.synchronised()).isEqualTo(ClockSync.Synchronised.NO);
        assertThat(unsynced.errorBoundNanos()).isNull();
        // without a status line, TIME_ERROR (5) as the return value says the same
        assertThat(ClockSyncProbe.fromAdjtimex(" maxerror: 16000\n return value = 5\n", null)
                        .synchronised())
                .isEqualTo(ClockSync.Synchronised.NO);
        assertThat(ClockSyncProbe.fromAdjtimex("adjtimex: unknown option\n", null))
                .isNull();
    }

    @Test
    void timedatectlGivesYesOrNo() {
        assertThat(ClockSyncProbe.fromTimedatectl("NTPSynchronized=yes\n", null).synchronised())
                .isEqualTo(ClockSync.Synchronised.YES);
        assertThat(ClockSyncProbe.fromTimedatectl("NTPSynchronized=no\n", null).synchronised())
                .isEqualTo(ClockSync.Synchronised.NO);
        assertThat(ClockSyncProbe.fromTimedatectl(
                        "System has not been booted with systemd as init system (PID 1).\n", null))
                .isNull();
    }

    @Test
    void withNoneOfTheCommandsTheAnswerIsUnknownWithTheReasons(@TempDir Path empty) throws IOException {
        Path clocksource = Files.writeString(empty.resolve("current_clocksource"), "kvm-clock\n");
        Path bin = Files.createDirectory(empty.resolve("bin"));
        ClockSync sync = new ClockSyncProbe(List.of(bin), Duration.ofSeconds(2), clocksource).probe();
        assertThat(sync)
                .isEqualTo(new ClockSync(
                        ClockSync.Source.NONE,
                        ClockSync.Synchronised.UNKNOWN,
                        null,
                        null,
                        "kvm-clock",
                        "the OS did not say: chronyc absent; adjtimex absent; timedatectl absent"));

        ClockSync withoutSysfs =
                new ClockSyncProbe(List.of(bin), Duration.ofSeconds(2), empty.resolve("nothing")).probe();
        assertThat(withoutSysfs.clocksource()).isNull();
    }

    @Test
    void runsTheFirstCommandThatIsThere(@TempDir Path dir) throws IOException {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        script(bin, "chronyc", "[ \"$*\" = '-n -c tracking' ] || exit 2\nprintf '%s' '" + CHRONY_SYNCED.strip() + "'");
        script(bin, "timedatectl", "echo NTPSynchronized=no");
        ClockSync sync = new ClockSyncProbe(List.of(bin), Duration.ofSeconds(5), dir.resolve("none")).probe();
        assertThat(sync.source()).isEqualTo(ClockSync.Source.CHRONY);
        assertThat(sync.offsetNanos()).isEqualTo(12_000L);
    }

    @Test
    void aFailingCommandIsSkippedWithItsFirstLine(@TempDir Path dir) throws IOException {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        script(bin, "chronyc", "echo '506 Cannot talk to daemon' >&2\nexit 1");
        script(bin, "adjtimex", "echo 'adjtimex: garbled'");
        script(
                bin,
                "timedatectl",
                "echo 'System has not been booted with systemd as init system (PID 1). Cannot operate.'\n"
                        + "echo 'Failed to connect to bus: Host is down'\nexit 1");
        ClockSync sync = new ClockSyncProbe(List.of(bin), Duration.ofSeconds(5), dir.resolve("none")).probe();
        assertThat(sync.synchronised()).isEqualTo(ClockSync.Synchronised.UNKNOWN);
        assertThat(sync.detail())
                .isEqualTo(
                        "the OS did not say: chronyc exited with 1: 506 Cannot talk to daemon; "
                                + "adjtimex said nothing readable: adjtimex: garbled; "
                                + "timedatectl exited with 1: System has not been booted with systemd as init system (PID 1). Cannot operate.");
    }

    @Test
    void aCommandThatHangsIsKilledAfterTheTimeoutAndTheNextIsAsked(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path pidFile = dir.resolve("pid");
        // The stand-in leaves a child behind that holds its output open: both must go.
        script(bin, "chronyc", "sleep 60 &\necho $! > " + pidFile + "\nwait");
        script(bin, "timedatectl", "echo NTPSynchronized=yes");
        long started = System.nanoTime();
        ClockSync sync = new ClockSyncProbe(List.of(bin), Duration.ofMillis(500), dir.resolve("none")).probe();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(sync.source()).isEqualTo(ClockSync.Source.TIMEDATECTL);
        assertThat(sync.synchronised()).isEqualTo(ClockSync.Synchronised.YES);
        assertThat(took).isLessThan(Duration.ofSeconds(10));
        long sleeper = Long.parseLong(Files.readString(pidFile).strip());
        Optional<ProcessHandle> child = ProcessHandle.of(sleeper);
        if (child.isPresent()) {
            child.get().onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false))
                .isFalse();
    }

    @Test
    void thisHostAnswersWithinTheTimeouts() {
        long started = System.nanoTime();
        ClockSync sync = ClockSyncProbe.ofThisHost().probe();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        if (sync.source() == ClockSync.Source.NONE) {
            assertThat(sync.synchronised()).isEqualTo(ClockSync.Synchronised.UNKNOWN);
            assertThat(sync.detail()).startsWith("the OS did not say: ");
        }
    }

    private static void script(Path bin, String name, String body) throws IOException {
        Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
