package dev.llmload.cli;

import dev.llmload.run.RunException;

/**
 * The one-line answer to a Java heap that ran out while reading run directories ({@code llmload
 * report}, {@code merge}): what ran out, how large the heap was and how to raise it through the
 * launcher's {@code LLMLOAD_JAVA_OPTS}, instead of a stack trace. By the time it is built the
 * failed work's objects are unreachable, so the message itself has room.
 */
final class HeapExhausted {

    private static final long MIB = 1024 * 1024;

    private HeapExhausted() {}

    static RunException of(String doing, OutOfMemoryError error) {
        long maxMib = Runtime.getRuntime().maxMemory() / MIB;
        long suggestedGib = Math.max(2, 2 * ((maxMib + 1023) / 1024));
        return new RunException(
                "the Java heap (" + maxMib + " MiB) ran out while " + doing
                        + "; give it more with LLMLOAD_JAVA_OPTS=-Xmx" + suggestedGib + "g",
                error);
    }
}
