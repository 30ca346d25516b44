package dev.llmload.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-off gives its consumer every record in the order given, and a consumer's failure to the caller. */
class OrderedHandOffTest {

    private static final List<RequestRecord> RECORDS = ReportFixtures.records(1_000, 4, 3);

    @Test
    void theConsumerGetsEveryRecordInOrderOnItsOwnThread() {
        List<Long> seen = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        try (OrderedHandOff handOff = new OrderedHandOff(record -> {
            seen.add(record.index());
            threads.add(Thread.currentThread().getName());
        })) {
            RECORDS.forEach(handOff);
        }
        assertThat(seen).containsExactlyElementsOf(RECORDS.stream().map(RequestRecord::index).toList());
        assertThat(threads).containsOnly("llmload-derive");
    }

    @Test
    void whatTheConsumerThrowsReachesTheCaller() {
        assertThatThrownBy(() -> {
            try (OrderedHandOff handOff = new OrderedHandOff(record -> {
                if (record.index() == 700) {
                    throw new IllegalStateException("no sample " + record.index());
                }
            })) {
                RECORDS.forEach(handOff);
            }
        }).isInstanceOf(IllegalStateException.class).hasMessage("no sample 700");
    }
}
