package dev.llmload.workload.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.testsupport.HostLoad;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.tokenizer.Tokenizer;
import dev.llmload.workload.tokenizer.Tokenizers;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticPromptsTest {

    static Stream<Arguments> lengths() {
        return Stream.of("cl100k_base", "o200k_base")
                .flatMap(encoding -> Stream.of(1, 2, 7, 128, 1000, 4096, 32_000).map(n -> Arguments.of(encoding, n)));
    }

    @ParameterizedTest
    @MethodSource("lengths")
    void exactTokenCount(String encoding, int tokens) {
        SyntheticPrompts prompts = SyntheticPrompts.of(Tokenizers.byName(encoding));
        SplittableRandom random = new SplittableRandom(tokens);

        for (int i = 0; i < 5; i++) {
            assertThat(prompts.tokenizer().count(prompts.generate(tokens, random)))
                    .isEqualTo(tokens);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cl100k_base", "o200k_base", "p50k_base", "r50k_base"})
    void largeVocabularyUnderEveryEncoding(String encoding) {
        assertThat(SyntheticPrompts.of(Tokenizers.byName(encoding)).vocabularySize())
                .isGreaterThan(900);
    }

    @Test
    void deterministicUnderSeedAndDifferentAcrossRequests() {
        SyntheticPrompts prompts = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
        SplittableRandom a = new SplittableRandom(42);
        SplittableRandom b = new SplittableRandom(42);

        List<String> first =
                Stream.generate(() -> prompts.generate(64, a)).limit(50).toList();
        List<String> second =
                Stream.generate(() -> prompts.generate(64, b)).limit(50).toList();

        assertThat(first).isEqualTo(second);
        // Different requests differ from their very first words, so a prefix cache cannot hit.
        Set<String> starts = new HashSet<>();
        first.forEach(text -> starts.add(text.substring(0, text.indexOf(' ', text.indexOf(' ') + 1))));
        assertThat(starts).hasSize(50);
    }

    @Test
    void extendKeepsTheHeadAndHitsTheTotal() {
        SyntheticPrompts prompts = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
        String head = "You are a helpful assistant. Answer briefly:";

        String text = prompts.extend(head, 100, new SplittableRandom(3));

        assertThat(text).startsWith(head);
        assertThat(prompts.tokenizer().count(text)).isEqualTo(100);
        assertThatThrownBy(() -> prompts.extend(head, 5, new SplittableRandom(3)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Under a tokenizer that makes every character a token no word is one token: making the
     * prompts asks the tokenizer nothing, and the first prompt asked for fails as bad data, in one
     * line.
     */
    @Test
    void aTokenizerWithTooFewSingleTokenWordsFailsAtTheFirstPromptNotBefore() {
        AtomicInteger asked = new AtomicInteger();
        Tokenizer characters = new Tokenizer() {
            @Override
            public String name() {
                return "characters";
            }

            @Override
            public int count(String text) {
                asked.incrementAndGet();
                return text.length();
            }

            @Override
            public int[] encode(String text) {
                return text.chars().toArray();
            }

            @Override
            public String decode(int[] tokens) {
                return new String(tokens, 0, tokens.length);
            }
        };

        SyntheticPrompts prompts = SyntheticPrompts.of(characters);
        assertThat(asked).hasValue(0);

        assertThatThrownBy(() -> prompts.generate(16, new SplittableRandom(1)))
                .isInstanceOf(DatasetException.class)
                .hasMessage("tokenizer characters makes only 0 common English words single tokens;"
                        + " synthetic prompts need at least " + SyntheticPrompts.MIN_VOCABULARY);
        assertThat(asked).hasPositiveValue();
    }

    @Test
    void completeFixesATextThatDoesNotSplitAtSpaces() {
        SyntheticPrompts prompts = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
        // Digits and punctuation merge unpredictably; the fix-up still lands on the count.
        StringBuilder text = new StringBuilder("1234567890!!!???...");

        prompts.complete(text, 40, 0, new SplittableRandom(5));

        assertThat(prompts.tokenizer().count(text.toString())).isEqualTo(40);
    }

    @Test
    @Tag("timing")
    void fast() {
        SyntheticPrompts prompts = SyntheticPrompts.of(Tokenizers.defaultTokenizer());
        SplittableRandom random = new SplittableRandom(9);
        prompts.generate(1000, random); // warm up the encoder

        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            prompts.generate(1000, random);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;

        // Shared, slow CI machines: the bound is loose, the point is "not seconds per thousand".
        assertThat((double) millis).as(HostLoad.describe()).isLessThan(HostLoad.slackMs(3000));
    }
}
