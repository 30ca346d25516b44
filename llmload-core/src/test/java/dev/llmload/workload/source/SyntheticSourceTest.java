package dev.llmload.workload.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SyntheticSourceTest {

    private static final SyntheticPrompts PROMPTS = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
    private static final LengthDistribution INPUT = LengthDistribution.parse("uniform:50:150");
    private static final LengthDistribution OUTPUT = LengthDistribution.parse("normal:64:8");

    private static List<RequestSpec> take(SyntheticSource source, int n) {
        return Stream.generate(source::next).limit(n).toList();
    }

    @Test
    void lengthsAreDrawnAndPromptsExact() {
        List<RequestSpec> specs = take(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 1), 300);

        assertThat(specs).extracting(RequestSpec::index).startsWith(0L, 1L, 2L);
        for (RequestSpec spec : specs) {
            assertThat(spec.inputTokens()).isBetween(50, 150);
            assertThat(PROMPTS.tokenizer().count(spec.promptText())).isEqualTo(spec.inputTokens());
        }
        assertThat(specs.stream()
                        .mapToInt(RequestSpec::maxOutputTokens)
                        .average()
                        .orElseThrow())
                .isCloseTo(64, within(2.0));
    }

    @Test
    void deterministicUnderSeed() {
        assertThat(take(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 5), 50))
                .isEqualTo(take(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 5), 50))
                .isNotEqualTo(take(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 6), 50));
        assertThat(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 5).contentHash())
                .isEqualTo(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 5).contentHash())
                .isNotEqualTo(new SyntheticSource(PROMPTS, INPUT, OUTPUT, 6).contentHash())
                .hasSize(64);
    }

    @Test
    void sharedPrefixesArePrependedAndTheirShareReported() {
        SharedPrefixes prefixes = new SharedPrefixes(4, 200, new SharedPrefixes.Uniform());
        SyntheticSource source = new SyntheticSource(PROMPTS, new LengthDistribution.Fixed(50), OUTPUT, prefixes, 3);

        List<RequestSpec> specs = take(source, 400);
        Map<String, Integer> byPrefix = new HashMap<>();
        for (RequestSpec spec : specs) {
            assertThat(spec.inputTokens()).isEqualTo(250);
            assertThat(PROMPTS.tokenizer().count(spec.promptText())).isEqualTo(250);
            byPrefix.merge(firstWords(spec.promptText(), 200), 1, Integer::sum);
        }

        assertThat(byPrefix).hasSize(4);
        assertThat(byPrefix.values()).allSatisfy(count -> assertThat(count).isBetween(70, 130));
        assertThat(source.prefixTokenShare()).isCloseTo(0.8, within(1e-12));
        // The part after the prefix is unique per request.
        assertThat(specs.stream()
                        .map(spec -> spec.promptText()
                                .substring(firstWords(spec.promptText(), 200).length()))
                        .distinct()
                        .count())
                .isEqualTo(400);
    }

    @Test
    void zipfMakesTheFirstPrefixHot() {
        SharedPrefixes prefixes = new SharedPrefixes(10, 20, SharedPrefixes.Assignment.parse("zipf:1.5"));
        SyntheticSource source = new SyntheticSource(PROMPTS, new LengthDistribution.Fixed(10), OUTPUT, prefixes, 3);

        Map<String, Integer> byPrefix = new HashMap<>();
        take(source, 2000).forEach(spec -> byPrefix.merge(firstWords(spec.promptText(), 20), 1, Integer::sum));

        // P(k = 1) = 1 / H(10, 1.5) ≈ 0.5;  P(k = 10) ≈ 0.016
        int hottest =
                byPrefix.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int coldest =
                byPrefix.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        assertThat(hottest).isBetween(900, 1100);
        assertThat(coldest).isLessThan(60);
    }

    private static String firstWords(String text, int words) {
        int end = -1;
        for (int i = 0; i < words; i++) {
            end = text.indexOf(' ', end + 1);
        }
        return text.substring(0, end);
    }
}
