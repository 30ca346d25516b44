package dev.llmload.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.schedule.ArrivalProcess.Bursts;
import dev.llmload.schedule.ArrivalProcess.Constant;
import dev.llmload.schedule.ArrivalProcess.Gamma;
import dev.llmload.schedule.ArrivalProcess.Poisson;
import dev.llmload.schedule.ArrivalProcess.Ramp;
import dev.llmload.schedule.ArrivalProcess.Stage;
import dev.llmload.schedule.ArrivalProcess.Stages;
import dev.llmload.schedule.ArrivalProcess.Trace;
import dev.llmload.stats.Statistics;
import dev.llmload.stats.Summary;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ArrivalProcessTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void poissonGapsHaveMeanOneOverRateAndUnitCoefficientOfVariation() {
        Summary gaps = gapsOf(Schedule.build(new Poisson(10), 2_000, null, 7));
        // Standard errors over 2,000 exponential gaps: mean ±2.2%, CV ±3.2%.
        assertThat(gaps.mean()).isCloseTo(SECOND / 10.0, within(0.05 * SECOND / 10.0));
        assertThat(gaps.std() / gaps.mean()).isCloseTo(1.0, within(0.10));
    }

    @Test
    void poissonOffsetsAreTheSameOnEveryJdk() {
        // SplittableRandom(42) gives the longs −4767286540954276203 and 2949826092126892291. Their top
        // 53 bits + 1, times 2⁻⁵³, are u = 0.7415648787718234 and 0.15991039287692022, so the exponential
        // gaps are −ln u = 0.29899262457387227 and 1.8331416651510677; at rate 4 the arrivals fall at
        // 0.29899.../4 s = 74748156 ns and (0.29899... + 1.83314...)/4 s = 533033572 ns.
        assertThat(Schedule.build(new Poisson(4), 2, null, 42).offsetsNanos())
                .containsExactly(74_748_156L, 533_033_572L);
    }

    @Test
    void gammaWithBurstinessQuarterHasCoefficientOfVariationTwo() {
        // CV = 1/√K = 2. The sample CV of such skewed gaps converges slowly (its standard error is ~6%
        // at 2,000 gaps, ~1.8% at 20,000), so this takes 20,000 for a test that cannot pass by luck.
        Summary gaps = gapsOf(Schedule.build(new Gamma(10, 0.25), 20_000, null, 11));
        assertThat(gaps.mean()).isCloseTo(SECOND / 10.0, within(0.05 * SECOND / 10.0));
        assertThat(gaps.std() / gaps.mean()).isCloseTo(2.0, within(0.2));
    }

    @Test
    void gammaWithBurstinessFourIsMoreRegularThanPoisson() {
        // CV = 1/√4 = 0.5; this shape takes the Marsaglia–Tsang path without the shape < 1 boost.
        Summary gaps = gapsOf(Schedule.build(new Gamma(10, 4), 2_000, null, 3));
        assertThat(gaps.mean()).isCloseTo(SECOND / 10.0, within(0.05 * SECOND / 10.0));
        assertThat(gaps.std() / gaps.mean()).isCloseTo(0.5, within(0.05));
    }

    @Test
    void constantIsEvenlySpacedFromZero() {
        Schedule schedule = Schedule.build(new Constant(3), 2_000, null, 1);
        // Offset i is round(i · 10⁹ / 3): 0, 333333333, 666666667, 1000000000.
        assertThat(schedule.offsetNanos(0)).isZero();
        assertThat(schedule.offsetNanos(1)).isEqualTo(333_333_333L);
        assertThat(schedule.offsetNanos(2)).isEqualTo(666_666_667L);
        assertThat(schedule.offsetNanos(3)).isEqualTo(SECOND);
        assertThat(schedule.offsetNanos(1_999)).isEqualTo(666_333_333_333L);
        Summary gaps = gapsOf(schedule);
        assertThat(gaps.std() / gaps.mean()).isLessThan(0.01);
    }

    @Test
    void sameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        List<ArrivalProcess> processes = List.of(
                new Poisson(5),
                new Gamma(5, 0.5),
                new Ramp(1, 10, Duration.ofSeconds(10), Ramp.Shape.LINEAR, true),
                new Stages(List.of(new Stage(5, Duration.ofSeconds(10))), true),
                new Bursts(5, 3, Duration.ofSeconds(1)));
        for (ArrivalProcess process : processes) {
            Schedule first = Schedule.build(process, 500, null, 123);
            assertThat(Schedule.build(process, 500, null, 123))
                    .as("%s", process)
                    .isEqualTo(first);
            assertThat(Schedule.build(process, 500, null, 124))
                    .as("%s", process)
                    .isNotEqualTo(first);
        }
    }

    @Test
    void countAndDurationBoundedSchedulesShareTheirPrefix() {
        Schedule byCount = Schedule.build(new Poisson(20), 100, null, 5);
        Schedule byDuration = Schedule.build(new Poisson(20), -1, Duration.ofSeconds(2), 5);
        int common = Math.min(byCount.size(), byDuration.size());
        assertThat(common).isGreaterThan(10);
        for (int i = 0; i < common; i++) {
            assertThat(byDuration.offsetNanos(i)).isEqualTo(byCount.offsetNanos(i));
        }
    }

    @Test
    void evenlySpacedLinearRampFromOneToTenOverTenSecondsSends55() {
        // Λ(t) = t + 9t²/20, Λ(10) = 10 + 45 = 55: arrivals at Λ = 0, 1, ..., 54 fall inside 10 s.
        Schedule schedule = Schedule.build(
                new Ramp(1, 10, Duration.ofSeconds(10), Ramp.Shape.LINEAR, false), -1, Duration.ofSeconds(10), 1);
        assertThat(schedule.size()).isEqualTo(55);
        // Λ(5) = 5 + 225/20 = 16.25: arrivals 0..16 before 5 s, the other 38 after.
        assertThat(countBefore(schedule, 5 * SECOND)).isEqualTo(17);
        // The first gap solves t + 0.45t² = 1: t = (√2.8 − 1)/0.9 = 0.7481333922979456 s.
        assertThat(schedule.offsetNanos(1)).isEqualTo(748_133_392L);
    }

    @Test
    void linearRampHoldsTheTargetRateAfterwards() {
        Schedule schedule =
                Schedule.build(new Ramp(1, 10, Duration.ofSeconds(10), Ramp.Shape.LINEAR, false), 65, null, 1);
        // Arrival 55 lands exactly at the end of the ramp, then one every 1/10 s.
        assertThat(schedule.offsetNanos(55)).isEqualTo(10 * SECOND);
        assertThat(schedule.offsetNanos(64)).isEqualTo(10_900_000_000L);
    }

    @Test
    void poissonLinearRampSendsAbout55WithRisingDensity() {
        int seeds = 20;
        long total = 0;
        long firstHalf = 0;
        for (int seed = 0; seed < seeds; seed++) {
            Schedule schedule = Schedule.build(
                    new Ramp(1, 10, Duration.ofSeconds(10), Ramp.Shape.LINEAR, true), -1, Duration.ofSeconds(10), seed);
            total += schedule.size();
            firstHalf += countBefore(schedule, 5 * SECOND);
        }
        // Expected 55 per run (standard error of the mean of 20 runs: √55/√20 = 1.7) and
        // 16.25 of them in the first half against 38.75 in the second.
        assertThat(total / (double) seeds).isCloseTo(55, within(5.0));
        assertThat(firstHalf / (double) seeds).isCloseTo(16.25, within(3.0));
    }

    @Test
    void exponentialRampDoublesTheRateEverySecond() {
        // 1 → 8 over 3 s: λ(t) = 2ᵗ, Λ(t) = (2ᵗ − 1)/ln 2, so Λ(1) = 1.44, Λ(2) = 4.33, Λ(3) = 10.10.
        // Evenly spaced arrivals at Λ = 0..10: 2 in the first second, 3 in the second, 6 in the third.
        Schedule schedule = Schedule.build(
                new Ramp(1, 8, Duration.ofSeconds(3), Ramp.Shape.EXPONENTIAL, false), -1, Duration.ofSeconds(3), 1);
        assertThat(schedule.size()).isEqualTo(11);
        assertThat(countBefore(schedule, SECOND)).isEqualTo(2);
        assertThat(countBefore(schedule, 2 * SECOND)).isEqualTo(5);
        // Arrival 1 at Λ(t) = 1: t = ln(1 + ln 2)/ln 2 = 0.7597073881389087 s.
        assertThat(schedule.offsetNanos(1)).isEqualTo(759_707_388L);
    }

    @Test
    void burstsSendBurstSizeIdenticalOffsetsEveryPeriod() {
        Schedule alone = Schedule.build(new Bursts(0, 5, Duration.ofSeconds(2)), 15, null, 1);
        assertThat(alone.offsetsNanos())
                .containsExactly(
                        0,
                        0,
                        0,
                        0,
                        0,
                        2 * SECOND,
                        2 * SECOND,
                        2 * SECOND,
                        2 * SECOND,
                        2 * SECOND,
                        4 * SECOND,
                        4 * SECOND,
                        4 * SECOND,
                        4 * SECOND,
                        4 * SECOND);

        Schedule withBackground =
                Schedule.build(new Bursts(3, 4, Duration.ofSeconds(1)), -1, Duration.ofSeconds(10), 9);
        long[] offsets = withBackground.offsetsNanos();
        assertThat(offsets).isSorted();
        for (int k = 0; k < 10; k++) {
            long burstTime = k * SECOND;
            assertThat(LongStream.of(offsets)
                            .filter(offset -> offset == burstTime)
                            .count())
                    .as("burst %d", k)
                    .isEqualTo(4);
        }
        // 40 burst requests plus a Poisson background of 3/s over 10 s (30 ± 5.5).
        assertThat(offsets.length - 40).isBetween(14, 46);
    }

    @Test
    void traceAtSpeedTwoHalvesTheOffsets() {
        Trace trace = new Trace(new long[] {0, 1_000, 3_001, 5_000 * SECOND}, 2);
        // 3001 / 2 = 1500.5 rounds half up to 1501.
        assertThat(Schedule.build(trace, -1, null, 1).offsetsNanos()).containsExactly(0, 500, 1_501, 2_500 * SECOND);
        assertThat(Schedule.build(new Trace(new long[] {4, 8}, 0.5), -1, null, 1)
                        .offsetsNanos())
                .containsExactly(8, 16);
        assertThat(Schedule.build(trace, 10, null, 1).offsetsNanos()).hasSize(4);
    }

    @Test
    void traceRejectsOffsetsOutOfOrder() {
        assertThatThrownBy(() -> new Trace(new long[] {0, 5, 3}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offset 2 is 3 after 5");
    }

    @Test
    void durationBoundCutsTheSchedule() {
        // One every 100 ms; 2.0 s itself is outside [0, 2 s).
        Schedule schedule = Schedule.build(new Constant(10), -1, Duration.ofSeconds(2), 1);
        assertThat(schedule.size()).isEqualTo(20);
        assertThat(schedule.offsetNanos(19)).isEqualTo(1_900_000_000L);
        // Whichever bound comes first wins.
        assertThat(Schedule.build(new Constant(10), 5, Duration.ofSeconds(2), 1).size())
                .isEqualTo(5);
        assertThat(Schedule.build(new Constant(10), 500, Duration.ofSeconds(2), 1)
                        .size())
                .isEqualTo(20);
        Schedule poisson = Schedule.build(new Poisson(50), -1, Duration.ofSeconds(3), 1);
        assertThat(poisson.offsetNanos(poisson.size() - 1)).isLessThan(3 * SECOND);
        assertThat(poisson.size()).isBetween(110, 190);
    }

    @Test
    void evenlySpacedStagesConcatenate() {
        Stages stages =
                new Stages(List.of(new Stage(2, Duration.ofSeconds(3)), new Stage(4, Duration.ofSeconds(2))), false);
        // 2/s from 0 to 3 s: 0, 0.5, ..., 2.5; then 4/s from 3 s to 5 s: 3.0, 3.25, ..., 4.75.
        assertThat(Schedule.build(stages, -1, null, 1).offsetsNanos())
                .containsExactly(
                        0,
                        500_000_000,
                        SECOND,
                        1_500_000_000,
                        2 * SECOND,
                        2_500_000_000L,
                        3 * SECOND,
                        3_250_000_000L,
                        3_500_000_000L,
                        3_750_000_000L,
                        4 * SECOND,
                        4_250_000_000L,
                        4_500_000_000L,
                        4_750_000_000L);
    }

    @Test
    void aZeroRateStageIsAPause() {
        Stages stages = new Stages(
                List.of(
                        new Stage(1, Duration.ofSeconds(2)),
                        new Stage(0, Duration.ofSeconds(1)),
                        new Stage(1, Duration.ofSeconds(2))),
                false);
        assertThat(Schedule.build(stages, -1, null, 1).offsetsNanos())
                .containsExactly(0, SECOND, 3 * SECOND, 4 * SECOND);
    }

    @Test
    void poissonStagesSendAboutRateTimesDurationInEachStage() {
        Stages stages = new Stages(
                List.of(new Stage(20, Duration.ofSeconds(10)), new Stage(100, Duration.ofSeconds(10))), true);
        Schedule schedule = Schedule.build(stages, -1, null, 4);
        long first = countBefore(schedule, 10 * SECOND);
        // 200 ± 14 and 1,000 ± 32 expected; the process ends with the last stage.
        assertThat(first).isBetween(160L, 240L);
        assertThat(schedule.size() - first).isBetween(900L, 1_100L);
        assertThat(schedule.offsetNanos(schedule.size() - 1)).isLessThan(20 * SECOND);
    }

    @Test
    void endlessProcessNeedsABound() {
        assertThatThrownBy(() -> Schedule.build(new Poisson(1), -1, null, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a request count or a duration");
    }

    @Test
    void rejectsInvalidParameters() {
        assertThatThrownBy(() -> new Poisson(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rate");
        assertThatThrownBy(() -> new Constant(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Gamma(1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("burstiness");
        assertThatThrownBy(() -> new Ramp(0, 10, Duration.ofSeconds(1), Ramp.Shape.EXPONENTIAL, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exponential");
        assertThatThrownBy(() -> new Bursts(1, 0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Stages(List.of(), false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCountTakesTheFirstOffsets() {
        long[] offsets = Schedule.build(new Constant(2), 4, null, 1).offsetsNanos();
        assertThat(offsets).containsExactly(0, 500_000_000, SECOND, 1_500_000_000);
    }

    /** The gaps between consecutive arrivals (not counting the first offset, which is 0 for some processes). */
    private static Summary gapsOf(Schedule schedule) {
        double[] gaps = new double[schedule.size() - 1];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = schedule.offsetNanos(i + 1) - schedule.offsetNanos(i);
        }
        return Statistics.summarize(gaps);
    }

    private static long countBefore(Schedule schedule, long nanos) {
        return LongStream.of(schedule.offsetsNanos())
                .filter(offset -> offset < nanos)
                .count();
    }
}
