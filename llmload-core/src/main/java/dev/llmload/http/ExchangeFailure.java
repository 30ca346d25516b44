package dev.llmload.http;

/** Why an HTTP exchange did not complete, at the transport level. */
public sealed interface ExchangeFailure {

    String message();

    /** The TCP (or TLS) connection could not be made. */
    record ConnectFailed(String message) implements ExchangeFailure {}

    /** The connection was not made within the connect timeout. */
    record ConnectTimedOut(String message) implements ExchangeFailure {}

    /** The TLS handshake failed: a certificate not trusted, no protocol or cipher in common. */
    record TlsFailed(String message) implements ExchangeFailure {}

    /** The server closed the connection, or the connection broke, before the response ended. */
    record ConnectionLost(String message) implements ExchangeFailure {}

    /** The response could not be read as HTTP. */
    record MalformedResponse(String message) implements ExchangeFailure {}

    /** This side ended the exchange (a timeout or a cancelled run), with its own reason. */
    record Aborted(String message) implements ExchangeFailure {}
}
