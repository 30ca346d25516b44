package dev.llmload.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The names a load gives its run directories (a sweep's points): a rate as typed, or to 3 significant figures. */
class LoadLabelTest {

    @Test
    void aRateAsTypedKeepsItsDigits() {
        assertThat(Load.Open.rateLabel(500)).isEqualTo("500");
        assertThat(Load.Open.rateLabel(1000)).isEqualTo("1000");
        assertThat(Load.Open.rateLabel(2.5)).isEqualTo("2.5");
        assertThat(Load.Open.rateLabel(12.25)).isEqualTo("12.25");
        assertThat(Load.Open.rateLabel(0.125)).isEqualTo("0.125");
        assertThat(Load.Open.rateLabel(1e7)).isEqualTo("10000000");
    }

    @Test
    void aComputedRateIsRoundedToThreeSignificantFigures() {
        // A capacity search's point between 64 and 107.2...: the name it once had was r85.60645640536984.
        assertThat(Load.Open.rateLabel(85.60645640536984)).isEqualTo("85.6");
        assertThat(Load.Open.rateLabel(1234.5678901)).isEqualTo("1230");
        assertThat(Load.Open.rateLabel(0.1 + 0.2)).isEqualTo("0.3");
        assertThat(Load.Open.rateLabel(2.0 / 3)).isEqualTo("0.667");
        assertThat(Load.Open.of(85.60645640536984, Load.Arrival.POISSON, null, null, null)
                        .label())
                .isEqualTo("r85.6");
    }
}
