package dev.llmload.analysis;

import dev.llmload.note.Note;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code client_behind_schedule}: the client could not keep an open loop's schedule, or a session
 * run's session starts and think times: the p99 of send lag (actual − intended send) is above
 * {@link #SCHEDULE_LAG_P99_MS}. The load offered was then lower and burstier than configured, so
 * the run measured another load than the one asked for. Requests that waited at a full gate
 * ({@code --max-concurrency}, {@code --max-sessions}) are queueing, not lag; {@link
 * ScheduleFidelity} leaves them out.
 */
final class BehindScheduleRule implements NoteRule {

    static final String KIND = "client_behind_schedule";
    /** The p99 send lag beyond which an open-loop client is behind its schedule. */
    static final double SCHEDULE_LAG_P99_MS = 10;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Optional<Note> detect(MeasuredRun run) {
        ScheduleFidelity.Lags schedule = ScheduleFidelity.lags(run.times(), run.load(), run.sessionGate());
        if (schedule == null || schedule.lagsMs().length == 0) {
            return Optional.empty();
        }
        double[] lagsMs = schedule.lagsMs();
        Summary lag = Statistics.summarize(lagsMs);
        if (lag.p99() <= SCHEDULE_LAG_P99_MS) {
            return Optional.empty();
        }
        long late = Arrays.stream(lagsMs).filter(l -> l > SCHEDULE_LAG_P99_MS).count();
        String gated = schedule.sessions()
                ? run.sessionGate() == null ? "" : ", counting only sessions that found a free --max-sessions slot"
                : run.load().maxConcurrency() == null
                        ? ""
                        : ", counting only requests that found a free --max-concurrency slot";
        return Optional.of(new Note(
                KIND,
                String.format(
                        Locale.ROOT,
                        "the client could not keep its %s: send lag p50 %s, p99 %s, max %s over %d requests "
                                + "(%d later than %s)%s; the load offered was lower and burstier than configured",
                        schedule.sessions()
                                ? "session schedule (session starts and think times)"
                                : "open-loop schedule",
                        NoteText.ms(lag.p50()),
                        NoteText.ms(lag.p99()),
                        NoteText.ms(lag.max()),
                        lagsMs.length,
                        late,
                        NoteText.ms(SCHEDULE_LAG_P99_MS),
                        gated)));
    }
}
