package dev.llmload.load;

import dev.llmload.protocol.Dialect;
import dev.llmload.workload.RequestSpec;

/**
 * A request whose body is already encoded, so the dispatcher only has to send it. The body is
 * handed to the connection and dropped once written; the request's execution keeps only its
 * {@link RequestFacts}.
 */
record PreparedRequest(RequestFacts facts, byte[] body) {

    static PreparedRequest encode(RequestSpec spec, Dialect dialect) {
        return new PreparedRequest(RequestFacts.of(spec), dialect.encode(spec));
    }
}
