package dev.llmload.load;

import dev.llmload.workload.RequestSpec;

/** A request whose body is already encoded, so the dispatcher only has to send it. */
record PreparedRequest(RequestSpec spec, byte[] body) {}
