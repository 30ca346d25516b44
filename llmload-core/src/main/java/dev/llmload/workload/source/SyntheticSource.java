package dev.llmload.workload.source;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.ContentHash;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.length.LengthDistribution;
import dev.llmload.workload.prompt.SyntheticPrompts;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An endless stream of synthetic single-turn requests: input and output lengths drawn from their
 * distributions, prompt text of exactly the drawn input length (see {@link SyntheticPrompts}),
 * optionally starting with one of a pool of {@link SharedPrefixes}.
 *
 * <p>Request i depends only on the seed and the parameters, never on timing. Each request draws
 * from its own generator split off a seeded master, so changing the text of one request does not
 * shift the lengths of the next.
 */
public final class SyntheticSource implements RequestSource {

    private final SyntheticPrompts prompts;
    private final LengthDistribution input;
    private final LengthDistribution output;
    private final SharedPrefixes prefixes;
    private final long seed;
    private final SplittableRandom master;
    /** The shared prefixes' texts, made by the first {@link #next} (they read the tokenizer's vocabulary); null before. */
    private String[] prefixTexts;

    private final double[] prefixCumulative;
    private long next;
    private long prefixTokens;
    private long inputTokens;

    /** Requests without shared prefixes. */
    public SyntheticSource(SyntheticPrompts prompts, LengthDistribution input, LengthDistribution output, long seed) {
        this(prompts, input, output, null, seed);
    }

    /**
     * @param prefixes the shared prefixes, or null for none; their texts are made from the seed, by
     *                 the first request made
     */
    public SyntheticSource(
            SyntheticPrompts prompts,
            LengthDistribution input,
            LengthDistribution output,
            SharedPrefixes prefixes,
            long seed) {
        this.prompts = prompts;
        this.input = input;
        this.output = output;
        this.prefixes = prefixes;
        this.seed = seed;
        this.master = new SplittableRandom(seed);
        prefixCumulative = prefixes == null ? new double[0] : cumulativeWeights(prefixes);
    }

    private String[] prefixTexts() {
        if (prefixTexts == null) {
            // A separate generator, so the prefix pool does not depend on the order of requests.
            SplittableRandom prefixRandom = new SplittableRandom(~seed);
            String[] texts = new String[prefixes.count()];
            for (int i = 0; i < texts.length; i++) {
                texts[i] = prompts.generate(prefixes.tokens(), prefixRandom);
            }
            prefixTexts = texts;
        }
        return prefixTexts;
    }

    @Override
    public boolean hasNext() {
        return true;
    }

    @Override
    public RequestSpec next() {
        SplittableRandom random = master.split();
        int ownTokens = input.sample(random);
        int maxOutput = output.sample(random);
        String text;
        int tokens;
        if (prefixes == null) {
            text = prompts.generate(ownTokens, random);
            tokens = ownTokens;
        } else {
            String prefix = prefixTexts()[pickPrefix(random)];
            tokens = prefixes.tokens() + ownTokens;
            text = prompts.extend(prefix, tokens, random);
            prefixTokens += prefixes.tokens();
        }
        inputTokens += tokens;
        return new RequestSpec(next++, List.of(ChatMessage.user(text)), tokens, maxOutput);
    }

    /**
     * The share of input tokens made so far that were shared-prefix tokens (0 without prefixes):
     * an upper bound on the prefix-cache hit rate a server can reach on this workload.
     */
    public double prefixTokenShare() {
        return inputTokens == 0 ? 0 : (double) prefixTokens / inputTokens;
    }

    @Override
    public String describe() {
        return "synthetic input=" + input.describe() + " output=" + output.describe()
                + " tokenizer=" + prompts.tokenizer().name() + " seed=" + seed
                + (prefixes == null ? "" : " prefixes=" + prefixes.describe());
    }

    @Override
    public String contentHash() {
        // The words list is part of the content: its size stands in for its version.
        StringBuilder parameters =
                new StringBuilder(describe()).append(" vocabulary=").append(prompts.vocabularySize());
        for (LengthDistribution distribution : List.of(input, output)) {
            if (distribution instanceof LengthDistribution.Empirical empirical) {
                parameters.append('\n').append(empirical.histogram());
            }
        }
        return ContentHash.of(parameters.toString());
    }

    @Override
    public void close() {
        // nothing open
    }

    private int pickPrefix(SplittableRandom random) {
        if (prefixCumulative.length == 0) {
            return random.nextInt(prefixes.count());
        }
        int i = Arrays.binarySearch(prefixCumulative, random.nextDouble());
        return Math.min(i >= 0 ? i + 1 : -i - 1, prefixes.count() - 1);
    }

    /** Zipf's cumulative probabilities; empty for uniform assignment, which needs none. */
    private static double[] cumulativeWeights(SharedPrefixes prefixes) {
        if (!(prefixes.assignment() instanceof SharedPrefixes.Zipf zipf)) {
            return new double[0];
        }
        double[] cumulative = new double[prefixes.count()];
        double sum = 0;
        for (int k = 0; k < cumulative.length; k++) {
            sum += 1 / Math.pow(k + 1, zipf.s());
            cumulative[k] = sum;
        }
        for (int k = 0; k < cumulative.length; k++) {
            cumulative[k] /= sum;
        }
        return cumulative;
    }
}
