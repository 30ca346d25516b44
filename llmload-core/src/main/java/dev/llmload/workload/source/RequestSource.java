package dev.llmload.workload.source;

import dev.llmload.workload.RequestSpec;
import java.util.Iterator;

/**
 * The requests of a workload, in order, made lazily as the dispatcher pulls them. A synthetic
 * source never runs out (the run's request count or duration ends it); a file source ends with
 * its file. Deterministic: the same parameters and seed give the same requests.
 *
 * <p>Making a request may tokenize text and, for files, read and parse the next entry, so the
 * dispatcher should pull ahead of the send time rather than on the I/O thread. Bad data met while
 * iterating is thrown as a {@link dev.llmload.workload.DatasetException}; file sources offer a
 * {@code prescan} that finds it before any load is sent.
 *
 * <p>Not thread-safe: one thread iterates. {@link #close} releases an open file.
 */
public interface RequestSource extends Iterator<RequestSpec>, AutoCloseable {

    /** One line for the report: the kind of source, its file or parameters. */
    String describe();

    /**
     * SHA-256 (lower-case hex) of what the requests are made from: a file's bytes, or the
     * synthetic parameters and seed. Equal hashes mean the runs sent comparable data.
     */
    String contentHash();

    @Override
    void close();
}
