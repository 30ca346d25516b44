package dev.llmload.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.llmload.note.Note;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client_saturated rule and the per-second figures, on recordings whose figures are known by hand. */
class ClientCostTest {

    private static final long SECOND = 1_000_000_000L;

    private static ClientCost over(ClientRecording recording, int seconds, boolean includesSimulator) {
        return ClientCost.summarise(
                recording,
                Recordings.ORIGIN_NANOS,
                Recordings.ORIGIN_NANOS + seconds * SECOND,
                seconds,
                includesSimulator);
    }

    @Test
    void aClientThatKeptUpHasNoNoteAndSaysSoInOneLine() {
        ClientCost cost = over(Recordings.of(2, 3, 150, 0, 0, 0.5, 2, List.of()), 3, false);

        assertThat(cost.saturated()).isFalse();
        assertThat(cost.note()).isEmpty();
        assertThat(cost.loopLagMs().count()).isEqualTo(600);
        assertThat(cost.loopLagMs().p99()).isEqualTo(0.15);
        assertThat(cost.cpuCores()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(cost.cpuS()).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(cost.cpuBeforeLoadS()).isEqualTo(5.0);
        assertThat(cost.wallBeforeLoadS()).isEqualTo(3.2);
        assertThat(cost.cpuBeforeFirstSendS()).isEqualTo(4.2);
        assertThat(cost.wallBeforeFirstSendS()).isEqualTo(2.9);
        assertThat(cost.verdict())
                .startsWith("kept up")
                .contains("loop lag p99 0.15 ms")
                .doesNotContain("\n");
    }

    @Test
    void aStalledLoopShowsInTheLagFiguresTheSecondItHappenedAndTheNote() {
        // Loop 0 stands still for 300 ms from 1.2 s: 30 of its due instants wait 300, 290, ... 10 ms.
        ClientCost cost = over(Recordings.of(2, 3, 150, 1200, 300, 0.5, 2, List.of()), 3, false);

        assertThat(cost.loopLagMs().max()).isEqualTo(300.0);
        assertThat(cost.loopLagMs().p99()).isGreaterThan(ClientCost.LOOP_LAG_P99_LIMIT_MS);
        assertThat(cost.perSecond()).extracting(ClientCost.Second::loopLagMaxMs).containsExactly(0.15, 300.0, 0.15);
        assertThat(cost.saturated()).isTrue();
        Note note = cost.note().orElseThrow();
        assertThat(note.kind()).isEqualTo(ClientCost.CLIENT_SATURATED);
        assertThat(note.message())
                .contains("up to 300.0 ms", "in second 1", "TTFT", "ITL", "TPOT", "E2E latency", "send lag");
        assertThat(cost.verdict()).startsWith("saturated");
    }

    @Test
    void oneLateInstantInAHundredIsNotSaturation() {
        // A 20 ms stall: 2 of 600 instants late, below the p99.
        ClientCost cost = over(Recordings.of(2, 3, 150, 1200, 20, 0.5, 2, List.of()), 3, false);
        assertThat(cost.loopLagMs().max()).isEqualTo(20.0);
        assertThat(cost.saturated()).isFalse();
    }

    @Test
    void aClientUsingNearlyAllItsCoresIsSaturatedUnlessTheSimulatorSharesItsProcess() {
        ClientRecording busy = Recordings.of(2, 3, 150, 0, 0, 1.9, 2, List.of());

        ClientCost alone = over(busy, 3, false);
        assertThat(alone.saturated()).isTrue();
        assertThat(alone.note().orElseThrow().message()).contains("1.90 of its 2 cores");

        ClientCost withSimulator = over(busy, 3, true);
        assertThat(withSimulator.saturated()).isFalse();
        assertThat(withSimulator.verdict()).contains("with the simulator");
    }

    @Test
    void onlyWhatFellInTheMeasuredWindowCounts() {
        ClientRecording recording = Recordings.of(
                1,
                4,
                150,
                500,
                400,
                0.5,
                2,
                List.of(
                        new ClientRecording.GcPause(200_000_000L, 7, "G1 Young Generation"),
                        new ClientRecording.GcPause(2_300_000_000L, 3, "G1 Young Generation")));
        // The window is [1 s, 3 s): the stall before it and the first pause are left out.
        ClientCost cost = ClientCost.summarise(
                recording, Recordings.ORIGIN_NANOS + SECOND, Recordings.ORIGIN_NANOS + 3 * SECOND, 2, false);

        assertThat(cost.loopLagMs().max()).isEqualTo(0.15);
        assertThat(cost.gcPauses()).isEqualTo(1);
        assertThat(cost.gcPauseMaxMs()).isEqualTo(3);
        assertThat(cost.perSecond()).extracting(ClientCost.Second::gcPauseMs).containsExactly(0L, 3L);
        assertThat(cost.windowS()).isEqualTo(2.0);
    }
}
