package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.engine.FinishReason;

/**
 * OpenAI's Responses API: named events {@code response.created}, one
 * {@code response.output_text.delta} per token event, then {@code response.completed} with the
 * usage, or {@code response.incomplete} (reason {@code max_output_tokens}) when the output limit
 * cut the answer. Errors are an {@code error} event or OpenAI's error body.
 */
final class ResponsesFormat extends WireFormat {
    private final String id;
    private final String model;
    private final long created;
    private final Integer maxOutputTokens;
    private int sequence;

    ResponsesFormat(String id, String model, long created, Integer maxOutputTokens) {
        this.id = "resp_" + id;
        this.model = model;
        this.created = created;
        this.maxOutputTokens = maxOutputTokens;
    }

    @Override
    byte[] opening(int promptTokens) {
        return utf8("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":" + sequence++
                + ",\"response\":" + response("in_progress", null, "", null) + "}\n\n");
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                + "\"sequence_number\":" + sequence++ + ",\"item_id\":\"msg_" + escape(id)
                + "\",\"output_index\":0,\"content_index\":0,\"delta\":\"");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\"}\n\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        boolean cut = finish.reason() == FinishReason.LENGTH;
        String type = cut ? "response.incomplete" : "response.completed";
        return events("event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":" + sequence++
                + ",\"response\":"
                + response(cut ? "incomplete" : "completed", finish, finish.text(), cut ? "max_output_tokens" : null)
                + "}\n\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events("event: error\ndata: {\"type\":\"error\",\"sequence_number\":" + sequence++
                + ",\"code\":\"server_error\",\"message\":\"" + escape(message) + "\",\"param\":null}\n\n");
    }

    @Override
    String body(Finish finish) {
        boolean cut = finish.reason() == FinishReason.LENGTH;
        return response(cut ? "incomplete" : "completed", finish, finish.text(), cut ? "max_output_tokens" : null);
    }

    private String response(String status, Finish finish, String text, String incompleteReason) {
        ObjectNode root = JSON.objectNode();
        root.put("id", id);
        root.put("object", "response");
        root.put("created_at", created);
        root.put("status", status);
        root.put("model", model);
        if (incompleteReason != null) {
            root.putObject("incomplete_details").put("reason", incompleteReason);
        } else {
            root.putNull("incomplete_details");
        }
        if (maxOutputTokens != null) {
            root.put("max_output_tokens", maxOutputTokens);
        }
        ArrayNode output = root.putArray("output");
        if (finish != null) {
            ObjectNode message = output.addObject();
            message.put("type", "message");
            message.put("id", "msg_" + id);
            message.put("status", status);
            message.put("role", "assistant");
            ObjectNode part = message.putArray("content").addObject();
            part.put("type", "output_text");
            part.put("text", text);
            part.putArray("annotations");
            ObjectNode usage = root.putObject("usage");
            usage.put("input_tokens", finish.promptTokens());
            usage.put("output_tokens", finish.completionTokens());
            usage.put("total_tokens", finish.promptTokens() + finish.completionTokens());
        } else {
            root.putNull("usage");
        }
        return root.toString();
    }
}
