package dev.llmload.load;

import dev.llmload.workload.ChatMessage;
import dev.llmload.workload.RequestSpec;
import dev.llmload.workload.source.RequestSource;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/** Endless small chat requests, each taking {@code prepareNanos} to make, as a slow file or tokenizer would. */
final class HelloSource implements RequestSource {

    private final long prepareNanos;
    private long index;

    HelloSource(long prepareNanos) {
        this.prepareNanos = prepareNanos;
    }

    @Override
    public boolean hasNext() {
        return true;
    }

    @Override
    public RequestSpec next() {
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
