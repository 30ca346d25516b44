package dev.llmload.load;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.DatasetException;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.source.RequestSource;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Endless small chat requests, each taking {@code prepareNanos} to make, as a slow file or tokenizer
 * would; or, {@link #failingAt made so}, a failure where a file's bad line would be.
 */
final class HelloSource implements RequestSource {

    private final long prepareNanos;
    private final long failAt;
    private long index;

    HelloSource(long prepareNanos) {
        this(prepareNanos, -1);
    }

    private HelloSource(long prepareNanos, long failAt) {
        this.prepareNanos = prepareNanos;
        this.failAt = failAt;
    }

    /** Requests 0 to {@code index - 1}, then the failure a bad line {@code index + 1} of a file gives. */
    static HelloSource failingAt(long index) {
        return new HelloSource(0, index);
    }

    @Override
    public boolean hasNext() {
        return true;
    }

    @Override
    public RequestSpec next() {
        if (index == failAt) {
            throw DatasetException.at(Path.of("prompts.jsonl"), index + 1, "not a JSON object");
        }
        if (prepareNanos > 0) {
            LockSupport.parkNanos(prepareNanos);
        }
        return new RequestSpec(index++, List.of(ChatMessage.user("Say hello.")), 3, 2);
    }

    @Override
    public String describe() {
        return "hello";
    }

    @Override
    public String contentHash() {
        return "hello";
    }

    @Override
    public void close() {}
}
