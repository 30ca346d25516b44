package dev.llmload.load;

import java.time.Duration;

/**
 * Per-request time limits; a null limit is off. Each one that runs out fails the request as a
 * timeout of its own kind.
 *
 * @param connect    to open the connection (TCP and TLS)
 * @param firstToken from the send to the first generated text
 * @param idle       between two pieces of the stream once text has started
 * @param total      from the send to the end of the response
 */
public record Timeouts(Duration connect, Duration firstToken, Duration idle, Duration total) {

    public static Timeouts defaults() {
        return new Timeouts(Duration.ofSeconds(10), null, null, Duration.ofMinutes(10));
    }
}
