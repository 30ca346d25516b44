package dev.llmload.workload.prompt;

import dev.llmload.workload.DatasetException;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Makes prompt text of an exact token count under one tokenizer.
 *
 * <p>Text is random words separated by single spaces, drawn from a list of about a thousand
 * common English words (the resource {@code words.txt}). Only words that are one token both
 * alone and after a space are used: BPE tokenizers split text at spaces before merging, so such
 * words then add exactly one token each and the count is known before it is checked. Every
 * result is still re-counted with the tokenizer and the tail adjusted word by word until the count
 * is exact, so a tokenizer that merges across words costs time but never gives a wrong length.
 * (Building from random token ids and decoding, as some tools do, can merge tokens on re-encoding.)
 *
 * <p>Words come from the caller's generator, so text is deterministic under a seed and two
 * requests share a prefix only by chance (about 1 in 1,000 per leading word), which keeps a
 * server's prefix cache from turning every request into a hit.
 *
 * <p>The words are picked on first use, not when the prompts are made: picking them reads the
 * tokenizer's vocabulary, which a run reads only once its first request is sent (see
 * {@link dev.llmload.workload.tokenizer.Tokenizers}). So a tokenizer under which too few words
 * are single tokens is reported by the first prompt asked for, as bad data.
 *
 * <p>Thread-safe: the words are picked once, by whichever thread asks first; nothing else changes.
 */
public final class SyntheticPrompts {

    /** Below this many usable words the text would be too repetitive to stand for real prompts. */
    static final int MIN_VOCABULARY = 64;

    private static final int MAX_FIXUPS = 16;

    private final Tokenizer tokenizer;
    /** Null until first use; then read and written only as a whole. */
    private volatile String[] words;

    private SyntheticPrompts(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Prompts under {@code tokenizer}; its words are picked on first use ({@link #vocabularySize}, {@link #generate}). */
    public static SyntheticPrompts of(Tokenizer tokenizer) {
        return new SyntheticPrompts(tokenizer);
    }

    /**
     * The words that are single tokens under the tokenizer, picked on the first call.
     *
     * @throws DatasetException when too few are, e.g. for a character-level tokenizer
     */
    private String[] words() {
        String[] picked = words;
        if (picked == null) {
            synchronized (this) {
                picked = words;
                if (picked == null) {
                    picked = pickWords(tokenizer);
                    words = picked;
                }
            }
        }
        return picked;
    }

    private static String[] pickWords(Tokenizer tokenizer) {
        List<String> usable = new ArrayList<>();
        for (String word : commonWords()) {
            if (tokenizer.count(word) == 1 && tokenizer.count(" " + word) == 1) {
                usable.add(word);
            }
        }
        if (usable.size() < MIN_VOCABULARY) {
            throw new DatasetException("tokenizer " + tokenizer.name() + " makes only " + usable.size()
                    + " common English words single tokens; synthetic prompts need at least " + MIN_VOCABULARY);
        }
        return usable.toArray(String[]::new);
    }

    public Tokenizer tokenizer() {
        return tokenizer;
    }

    /** How many distinct words the text is drawn from. */
    public int vocabularySize() {
        return words().length;
    }

    /** Random text of exactly {@code tokens} tokens (≥ 1). */
    public String generate(int tokens, RandomGenerator random) {
        StringBuilder text = new StringBuilder(tokens * 8);
        appendWords(text, tokens, random);
        complete(text, tokens, 0, random);
        return text.toString();
    }

    /**
     * {@code head} followed by random words so that the whole text is exactly {@code totalTokens}
     * tokens. The head is kept as it is, so texts extending the same head share it byte for byte.
     *
     * @throws IllegalArgumentException when the head alone has {@code totalTokens} or more tokens
     */
    public String extend(String head, int totalTokens, RandomGenerator random) {
        int headTokens = tokenizer.count(head);
        if (headTokens >= totalTokens) {
            throw new IllegalArgumentException("head of " + headTokens + " tokens leaves no room in " + totalTokens);
        }
        StringBuilder text = new StringBuilder(head.length() + (totalTokens - headTokens) * 8).append(head);
        appendWords(text, totalTokens - headTokens, random);
        complete(text, totalTokens, head.length(), random);
        return text.toString();
    }

    /**
     * Appends {@code count} random words, each after a space unless {@code text} is empty. Under a
     * tokenizer that splits at spaces this adds exactly {@code count} tokens; callers who need a
     * guarantee follow with {@link #complete}.
     */
    public void appendWords(StringBuilder text, int count, RandomGenerator random) {
        String[] words = words();
        for (int i = 0; i < count; i++) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(words[random.nextInt(words.length)]);
        }
    }

    /**
     * Adds or removes words at the end of {@code text}, never touching its first
     * {@code keepChars} characters, until it is exactly {@code tokens} tokens.
     *
     * @throws IllegalStateException when the tokenizer will not let the count settle
     */
    public void complete(StringBuilder text, int tokens, int keepChars, RandomGenerator random) {
        for (int attempt = 0; attempt < MAX_FIXUPS; attempt++) {
            int count = tokenizer.count(text.toString());
            if (count == tokens) {
                return;
            }
            if (count < tokens) {
                appendWords(text, tokens - count, random);
            } else {
                for (int excess = count - tokens; excess > 0 && text.length() > keepChars; excess--) {
                    text.setLength(Math.max(keepChars, text.lastIndexOf(" ")));
                }
            }
        }
        throw new IllegalStateException(
                "tokenizer " + tokenizer.name() + " did not settle on a text of exactly " + tokens + " tokens");
    }

    private static List<String> commonWords() {
        try (InputStream in = SyntheticPrompts.class.getResourceAsStream("words.txt")) {
            if (in == null) {
                throw new IllegalStateException("resource words.txt is missing from the jar");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            return reader.lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
