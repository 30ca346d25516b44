package dev.llmload.load;

import java.time.Duration;

/**
 * Per-request limits: time limits, a null one being off, each failing the request as a timeout of
 * its own kind when it runs out; and the bounds on what a response may bring.
 *
 * @param connect    to open the connection (TCP and TLS)
 * @param firstToken from the send to the first generated text
 * @param idle       between two pieces of the stream once text has started
 * @param total      from the send to the end of the response
 * @param limits     bytes and tokens one response may bring
 */
public record Timeouts(Duration connect, Duration firstToken, Duration idle, Duration total, ResponseLimits limits) {

    public Timeouts {
        // A configuration recorded before response limits existed had the defaults.
        limits = limits == null ? ResponseLimits.defaults() : limits;
    }

    /** Time limits with the default response limits. */
    public Timeouts(Duration connect, Duration firstToken, Duration idle, Duration total) {
        this(connect, firstToken, idle, total, ResponseLimits.defaults());
    }

    public static Timeouts defaults() {
        return new Timeouts(Duration.ofSeconds(10), null, null, Duration.ofMinutes(10));
    }

    public Timeouts withLimits(ResponseLimits responseLimits) {
        return new Timeouts(connect, firstToken, idle, total, responseLimits);
    }
}
