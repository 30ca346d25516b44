package dev.llmload.segment;

import static dev.llmload.segment.SegmentTest.assertOneLineRefusal;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class StartAtTest {

    /** Reads "<n>s" and "<n>m" as the command line's duration reader does for these two forms. */
    private static final Function<String, Duration> DURATIONS = text -> {
        if (text.matches("\\d+s")) {
            return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
        }
        if (text.matches("\\d+m")) {
            return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
        }
        throw new IllegalArgumentException("not a duration: '" + text + "'");
    };

    private static final Instant TEN_UTC = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void readsRfc3339InstantsInEveryFormTheRfcAllows() {
        assertThat(at("2026-12-01T10:00:00Z")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01t10:00:00z")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01 10:00:00Z")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01T11:00:00+01:00")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01T04:30:00-05:30")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01T10:00:00-00:00")).isEqualTo(TEN_UTC);
        assertThat(at("2026-12-01T10:00:00.25Z")).isEqualTo(TEN_UTC.plusMillis(250));
        assertThat(at("2026-12-01T10:00:00.000000001Z")).isEqualTo(TEN_UTC.plusNanos(1));
        // an absolute instant needs no base
        assertThat(StartAt.parse("2026-12-01T10:00:00Z", DURATIONS).resolve(null))
                .isEqualTo(TEN_UTC);
    }

    @Test
    void refusesWhatIsNotRfc3339() {
        String reason = "is neither an RFC 3339 instant (e.g. 2026-12-01T10:00:00Z) nor +DELAY (e.g. +30s)";
        assertOneLineRefusal(() -> StartAt.parse("2026-12-01T10:00Z", DURATIONS), reason); // seconds are required
        assertOneLineRefusal(() -> StartAt.parse("2026-12-01T10:00:00", DURATIONS), reason); // so is the offset
        assertOneLineRefusal(() -> StartAt.parse("2026-13-01T10:00:00Z", DURATIONS), reason);
        assertOneLineRefusal(
                () -> StartAt.parse("2026-12-31T23:59:60Z", DURATIONS), reason); // java.time has no leap second
        assertOneLineRefusal(() -> StartAt.parse("2026-12-01T10:00:00.1234567891Z", DURATIONS), reason);
        assertOneLineRefusal(() -> StartAt.parse("tomorrow", DURATIONS), "start-at 'tomorrow' is neither");
        assertOneLineRefusal(() -> StartAt.parse("1764583200", DURATIONS), reason);
    }

    @Test
    void aDelayIsAddedToTheBaseThatTheLauncherGivesEverySegment() {
        StartAt start = StartAt.parse("+30s", DURATIONS);
        assertThat(start).isEqualTo(new StartAt.After(Duration.ofSeconds(30)));
        Instant base = StartAt.base(Map.of("LLMLOAD_START_BASE", "2026-12-01T09:59:30Z"));
        assertThat(start.resolve(base)).isEqualTo(TEN_UTC);
        assertThat(StartAt.parse("+2m", DURATIONS).resolve(base)).isEqualTo(Instant.parse("2026-12-01T10:01:30Z"));
    }

    @Test
    void aDelayWithoutABaseOrABadBaseIsRefused() {
        StartAt start = StartAt.parse("+30s", DURATIONS);
        assertThat(StartAt.base(Map.of())).isNull();
        assertThat(StartAt.base(Map.of("LLMLOAD_START_BASE", " "))).isNull();
        assertOneLineRefusal(
                () -> start.resolve(null),
                "start-at +30s is relative to a base instant that every segment shares, and LLMLOAD_START_BASE is not set");
        assertOneLineRefusal(
                () -> StartAt.base(Map.of("LLMLOAD_START_BASE", "now")),
                "LLMLOAD_START_BASE='now' is not an RFC 3339 instant");
        assertOneLineRefusal(() -> StartAt.parse("+soon", DURATIONS), "start-at '+soon': not a duration: 'soon'");
        assertOneLineRefusal(() -> new StartAt.After(Duration.ofSeconds(-1)), "must not be negative");
    }

    private static Instant at(String text) {
        StartAt start = StartAt.parse(text, DURATIONS);
        assertThat(start).isInstanceOf(StartAt.At.class);
        return ((StartAt.At) start).instant();
    }
}
