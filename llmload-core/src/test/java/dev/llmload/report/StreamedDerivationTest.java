package dev.llmload.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.analysis.Records;
import dev.llmload.analysis.TimeSeries;
import dev.llmload.config.RunConfig;
import dev.llmload.metrics.InterTokenGaps;
import dev.llmload.metrics.RunResults;
import dev.llmload.metrics.Slo;
import dev.llmload.record.FailureClass;
import dev.llmload.record.Journal;
import dev.llmload.record.JournalReader;
import dev.llmload.record.Outcome;
import dev.llmload.record.RequestRecord;
import dev.llmload.record.ServerTimings;
import dev.llmload.record.SessionTurn;
import dev.llmload.record.TimeoutKind;
import dev.llmload.record.TokenEventsView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming builders of the end-of-run derivation give, fed a journal a record at a time, what
 * their list forms give for the same records held: one implementation, so a report derived from a
 * journal's passes equals the one derived from its records in memory. The fixture has what each
 * part counts: warm-up, every outcome (timeouts by kind, failures with messages), sessions, the
 * server's own timings and an SLO.
 */
class StreamedDerivationTest {

    @TempDir
    Path dir;

    @Test
    void resultsAndSeriesFromOnePassOverTheJournalEqualTheirListForms() throws Exception {
        Path journal = journal(fixture());
        List<RequestRecord> read = JournalReader.read(journal);
        Slo slo = Slo.parse("ttft:120,e2e:900");

        RunResults.Accumulator results = new RunResults.Accumulator(slo);
        InterTokenGaps gaps = new InterTokenGaps();
        TimeSeries.Span span = new TimeSeries.Span();
        JournalReader.forEachWithoutTokenGaps(journal, span::add);
        TimeSeries.Builder series = span.builder();
        JournalReader.forEach(journal, record -> {
            results.add(record);
            TokenEventsView events = TokenEventsView.of(record);
            gaps.add(events);
            series.add(record);
            series.addTokenEvents(events);
        });

        RunResults listed = RunResults.compute(read, slo);
        assertThat(json(results.result(gaps))).isEqualTo(json(listed));
        assertThat(json(series.build())).isEqualTo(json(TimeSeries.of(read)));
        // The fixture reaches every part it means to check.
        assertThat(listed.requests().timedOut()).isPositive();
        assertThat(listed.errors()).containsKeys("timeout", "http_5xx");
        assertThat(listed.errors().get("timeout").byTimeoutKind()).hasSize(2);
        // Sessions 0 to 3 are warm-up, but for session 1's timeout (request 5), which is measured.
        assertThat(listed.sessions().sessions()).isEqualTo(57);
        assertThat(listed.serverView().requests()).isPositive();
        assertThat(listed.goodput().met())
                .isPositive()
                .isLessThan(listed.requests().succeeded());
    }

    @Test
    void passesOverTheJournalHoldingNoRecordEqualTheListDerivation() throws Exception {
        Path journal = journal(fixture());
        RunConfig config =
                RunConfig.builder().concurrency(8).slo("ttft:120,e2e:900").build();
        int[] passes = {0, 0};
        Measurements streamed = Measurements.derive(
                consumer -> {
                    passes[0]++;
                    JournalReader.forEachWithoutTokenGaps(journal, consumer);
                },
                consumer -> {
                    passes[1]++;
                    JournalReader.forEach(journal, consumer);
                },
                config);
        // Once without the token gaps (the cut), once in full (the token events, and the records beside them).
        assertThat(passes).containsExactly(1, 1);
        assertThat(json(streamed)).isEqualTo(json(Measurements.derive(JournalReader.read(journal), config)));
        assertThat(streamed.steadyState().reached()).isTrue();
        assertThat(streamed.notes()).extracting(dev.llmload.note.Note::kind).contains("timeouts");
    }

    /** 300 requests over about 10 s: 20 warm-up, sessions of 5 turns, failures, timeouts and server timings. */
    private static List<RequestRecord> fixture() {
        Random random = new Random(13);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            double intended = i * 33.0;
            double sent = intended + random.nextDouble() * 3;
            RequestRecord record;
            if (i % 37 == 5) {
                record = Records.timeout(i, sent, i % 2 == 0 ? TimeoutKind.IDLE : TimeoutKind.FIRST_TOKEN);
            } else if (i % 23 == 7) {
                record = Records.failed(i, sent, FailureClass.HTTP_5XX, 503, "overloaded " + (i % 4));
            } else {
                int events = 5 + random.nextInt(20);
                double[] tokens = new double[events];
                double t = sent + 40 + random.nextDouble() * 150;
                for (int k = 0; k < events; k++) {
                    tokens[k] = t;
                    t += 5 + random.nextDouble() * 30;
                }
                int[] counts = new int[events];
                java.util.Arrays.fill(counts, 1 + random.nextInt(2));
                record = Records.streamed(
                        i, i < 20, intended, sent, tokens, counts, Outcome.SUCCESS, 200, 100 + random.nextInt(400));
                if (i % 3 == 0) {
                    record = Records.withServerTimings(
                            record,
                            new ServerTimings(
                                    1, 20 + random.nextDouble() * 50, 100, 200 + random.nextDouble() * 300, -1));
                }
            }
            records.add(inSession(record, new SessionTurn(i / 5, i % 5 + 1)));
        }
        return records;
    }

    private static RequestRecord inSession(RequestRecord r, SessionTurn session) {
        return new RequestRecord(
                r.index(),
                r.requestId(),
                r.warmup(),
                r.timings(),
                r.tokenEventCounts(),
                r.httpStatus(),
                r.outcome(),
                r.inputTokens(),
                r.inputTokensFromServer(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.finishReason(),
                r.streamed(),
                r.retryAfter(),
                session,
                r.serverTimings());
    }

    private Path journal(List<RequestRecord> records) throws Exception {
        Path file = dir.resolve(Journal.FILE_NAME);
        try (Journal writer = Journal.create(file)) {
            for (RequestRecord record : records) {
                writer.append(record);
            }
        }
        return file;
    }

    private static String json(Object value) throws Exception {
        return ReportFiles.JSON.writeValueAsString(value);
    }
}
