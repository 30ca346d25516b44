package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;

/**
 * SGLang's native {@code /generate} with {@code stream:true}: SSE events whose {@code text} is
 * all text so far and whose {@code meta_info.completion_tokens} counts the tokens so far; ends
 * with {@code data: [DONE]}. Errors are {@code {"error":{"message":...}}}.
 */
final class SglangFormat extends WireFormat {
    private final String id;

    SglangFormat(String id) {
        this.id = id;
    }

    @Override
    boolean cumulative() {
        return true;
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8("data: {\"text\":\"");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\",\"meta_info\":{\"id\":\"" + escape(id) + "\",\"finish_reason\":null,\"completion_tokens\":"
                + tokensAfter + "}}\n\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        return events("data: " + last(finish) + "\n\n", "data: [DONE]\n\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events("data: " + errorBody(SimApi.SGLANG, message, "server_error", 500) + "\n\n", "data: [DONE]\n\n");
    }

    @Override
    String body(Finish finish) {
        return last(finish);
    }

    private String last(Finish finish) {
        String reason = finish.reason() == FinishReason.LENGTH
                ? "{\"type\":\"length\",\"length\":" + finish.completionTokens() + "}"
                : "{\"type\":\"stop\",\"matched\":null}";
        return "{\"text\":\"" + escape(finish.text()) + "\",\"meta_info\":{\"id\":\"" + escape(id)
                + "\",\"finish_reason\":" + reason + ",\"prompt_tokens\":" + finish.promptTokens()
                + ",\"completion_tokens\":" + finish.completionTokens() + ",\"cached_tokens\":0,\"e2e_latency\":"
                + finish.totalNanos() / 1e9 + "}}";
    }
}
