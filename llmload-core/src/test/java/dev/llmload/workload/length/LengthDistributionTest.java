package dev.llmload.workload.length;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.workload.DatasetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LengthDistributionTest {

    private static final int N = 200_000;

    private static int[] samples(LengthDistribution distribution) {
        SplittableRandom random = new SplittableRandom(7);
        return IntStream.range(0, N).map(i -> distribution.sample(random)).toArray();
    }

    @Test
    void fixed() {
        LengthDistribution d = LengthDistribution.parse("512");

        assertThat(d).isEqualTo(new LengthDistribution.Fixed(512));
        assertThat(samples(d)).containsOnly(512);
        assertThat(d.describe()).isEqualTo("512");
    }

    @Test
    void uniformCoversItsBoundsInclusive() {
        LengthDistribution d = LengthDistribution.parse("uniform:256:768");
        int[] s = samples(d);

        assertThat(IntStream.of(s).min().orElseThrow()).isEqualTo(256);
        assertThat(IntStream.of(s).max().orElseThrow()).isEqualTo(768);
        assertThat(IntStream.of(s).average().orElseThrow()).isCloseTo(512, within(2.0));
        assertThat(d.describe()).isEqualTo("uniform:256:768");
    }

    @Test
    void normalHasItsMeanAndStdAndIsClippedToOne() {
        int[] s = samples(LengthDistribution.parse("normal:512:64"));
        double mean = IntStream.of(s).average().orElseThrow();
        double variance =
                IntStream.of(s).mapToDouble(x -> (x - mean) * (x - mean)).sum() / s.length;

        assertThat(mean).isCloseTo(512, within(1.0));
        assertThat(Math.sqrt(variance)).isCloseTo(64, within(1.0));
        assertThat(IntStream.of(samples(LengthDistribution.parse("normal:2:50")))
                        .min()
                        .orElseThrow())
                .isEqualTo(1);
    }

    @Test
    void lognormalParametersAreThoseOfTheLengthsNotTheLog() {
        int[] s = samples(LengthDistribution.parse("lognormal:1000:500"));
        double mean = IntStream.of(s).average().orElseThrow();
        double variance =
                IntStream.of(s).mapToDouble(x -> (x - mean) * (x - mean)).sum() / s.length;

        assertThat(mean).isCloseTo(1000, within(5.0));
        assertThat(Math.sqrt(variance)).isCloseTo(500, within(10.0));
        assertThat(IntStream.of(s).min().orElseThrow()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void rangeRatioIsVllmsSymmetricRange() {
        LengthDistribution d = LengthDistribution.withRangeRatio(1000, 0.25);
        int[] s = samples(d);

        assertThat(d).isEqualTo(new LengthDistribution.Uniform(750, 1250));
        assertThat(IntStream.of(s).min().orElseThrow()).isEqualTo(750);
        assertThat(IntStream.of(s).max().orElseThrow()).isEqualTo(1250);
        assertThat(LengthDistribution.withRangeRatio(128, 0)).isEqualTo(new LengthDistribution.Fixed(128));
        assertThat(LengthDistribution.withRangeRatio(3, 0.9)).isEqualTo(new LengthDistribution.Uniform(1, 6));
        assertThatThrownBy(() -> LengthDistribution.withRangeRatio(100, 1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fileHistogramFollowsItsWeights(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("lengths.csv"), """
                length,weight
                # short chats dominate
                100,3

                1000,1
                5000,0
                """);
        LengthDistribution d = LengthDistribution.parse("file:" + file);
        int[] s = samples(d);

        assertThat(s).containsOnly(100, 1000);
        assertThat(IntStream.of(s).filter(x -> x == 100).count() / (double) N).isCloseTo(0.75, within(0.01));
        assertThat(d.mean()).isCloseTo(325, within(1e-9));
        assertThat(d.describe()).isEqualTo("file:" + file);
    }

    @Test
    void badHistogramNamesFileAndLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("lengths.csv"), "100,1\n200;2\n");

        assertThatThrownBy(() -> LengthDistribution.parse("file:" + file))
                .isInstanceOf(DatasetException.class)
                .hasMessage(file + ":2: expected length,weight but found '200;2'");
        Path empty = Files.writeString(dir.resolve("empty.csv"), "# nothing\n");
        assertThatThrownBy(() -> LengthDistribution.parse("file:" + empty))
                .hasMessageStartingWith(empty + ": empty histogram");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "0",
                "-5",
                "abc",
                "uniform:10",
                "uniform:10:5",
                "normal:0:1",
                "normal:5:-1",
                "lognormal:x:1",
                "poisson:5:1",
                "file:",
                "uniform:1:2:3"
            })
    void badSpecIsOneLineErrorNamingIt(String spec) {
        assertThatThrownBy(() -> LengthDistribution.parse(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bad length distribution '" + spec + "'")
                .hasMessageNotContaining("\n");
    }

    @Test
    void sameSeedSameSamples() {
        LengthDistribution d = LengthDistribution.parse("lognormal:300:200");

        assertThat(samples(d)).isEqualTo(samples(d));
    }
}
