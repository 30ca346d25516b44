package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;

/**
 * Anthropic's Messages API: named events {@code message_start}, {@code content_block_start},
 * one {@code content_block_delta} with a {@code text_delta} per token event,
 * {@code content_block_stop}, {@code message_delta} with the output tokens, {@code message_stop}.
 * Errors are an {@code error} event or body {@code {"type":"error","error":{type,message}}}.
 */
final class AnthropicFormat extends WireFormat {
    private final String id;
    private final String model;

    AnthropicFormat(String id, String model) {
        this.id = "msg_" + id;
        this.model = model;
    }

    @Override
    byte[] opening(int promptTokens) {
        return utf8("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"" + escape(id)
                + "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"" + escape(model)
                + "\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + promptTokens
                + ",\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\","
                + "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n");
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\"}}\n\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        return events(
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\""
                        + stopReason(finish) + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":"
                        + finish.completionTokens() + "}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events("event: error\ndata: " + errorBody(SimApi.ANTHROPIC, message, "api_error", 500) + "\n\n");
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    String body(Finish finish) {
        return "{\"id\":\"" + escape(id) + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
                + escape(model) + "\",\"content\":[{\"type\":\"text\",\"text\":\"" + escape(finish.text())
                + "\"}],\"stop_reason\":\"" + stopReason(finish) + "\",\"stop_sequence\":null,\"usage\":"
                + "{\"input_tokens\":" + finish.promptTokens() + ",\"output_tokens\":" + finish.completionTokens()
                + "}}";
    }

    private static String stopReason(Finish finish) {
        return finish.reason() == FinishReason.LENGTH ? "max_tokens" : "end_turn";
    }
}
