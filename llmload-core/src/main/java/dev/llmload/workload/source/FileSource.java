package dev.llmload.workload.source;

import dev.llmload.workload.ContentHash;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.tokenizer.Tokenizer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * What the dataset files share: a look-ahead of one request read lazily from the file, the
 * request index, the seeded generator for output lengths, the file's content hash and closing
 * the input. Subclasses only read their format's next entry.
 */
abstract sealed class FileSource implements RequestSource permits JsonlSource, ShareGptSource {

    protected final Path file;
    protected final Tokenizer tokenizer;
    protected final OutputLengths outputLengths;
    protected final SplittableRandom random;
    /** Index of the next request made. */
    protected long index;
    /** The open input once reading started; closed when the file is exhausted or the source closed. */
    protected Closeable input;

    private RequestSpec pending;
    private boolean finished;
    private String sha256;

    FileSource(Path file, Tokenizer tokenizer, OutputLengths outputLengths, long seed) {
        this.file = file;
        this.tokenizer = tokenizer;
        this.outputLengths = outputLengths;
        this.random = new SplittableRandom(seed);
    }

    /** The next request of the file, or null at its end (after closing it). */
    protected abstract RequestSpec readNext();

    /** The format's name in {@link #describe()}: {@code jsonl}, {@code sharegpt}. */
    protected abstract String format();

    /** Records the hash a prescan computed, so it is not read again. */
    final void knownHash(String hash) {
        this.sha256 = hash;
    }

    @Override
    public final boolean hasNext() {
        if (pending == null && !finished) {
            pending = readNext();
        }
        return pending != null;
    }

    @Override
    public final RequestSpec next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        RequestSpec spec = pending;
        pending = null;
        return spec;
    }

    @Override
    public final String describe() {
        return format() + " " + file + " output=" + outputLengths.describe() + " tokenizer=" + tokenizer.name();
    }

    @Override
    public final String contentHash() {
        if (sha256 == null) {
            sha256 = ContentHash.of(file);
        }
        return sha256;
    }

    @Override
    public final void close() {
        finished = true;
        if (input != null) {
            try {
                input.close();
            } catch (IOException e) {
                // only read from: a failed close loses nothing
            }
            input = null;
        }
    }
}
