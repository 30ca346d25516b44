package dev.llmload.http;

import java.util.Map;

/**
 * One POST or GET to send. The body is encoded before dispatch, so building it never delays a
 * send; headers hold per-request extras (authorisation is added by the client).
 */
public record HttpExchangeRequest(String method, String path, Map<String, String> headers, byte[] body) {

    public HttpExchangeRequest {
        headers = Map.copyOf(headers);
    }
}
