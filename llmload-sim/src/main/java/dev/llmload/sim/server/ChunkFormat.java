package dev.llmload.sim.server;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * Byte templates of one response's SSE events in vLLM's exact chunk shape (see
 * reference/servers-wire-and-metrics.md §C.2, §C.3), built once per request so that a token event
 * is three array copies: {@link #contentOpen}, the words, {@link #contentClose}. Immutable.
 */
final class ChunkFormat extends WireFormat {

    static final byte[] DONE = ascii("data: [DONE]\n\n");

    private static final byte[] CHAT_CLOSE = ascii("\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    private static final byte[] CHAT_CLOSE_USAGE =
            ascii("\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n");
    private static final byte[] TEXT_CLOSE =
            ascii("\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}]}\n\n");
    private static final byte[] TEXT_CLOSE_USAGE =
            ascii("\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}\n\n");

    private final boolean chat;
    private final boolean includeUsage;
    private final boolean earlyRole;
    private final String bodyId;
    private final long created;
    private final String model;
    private final String head;
    private final String usageNull;
    private final byte[] contentOpen;
    private final byte[] contentClose;

    /**
     * @param bodyId       the {@code id} field, e.g. {@code chatcmpl-<request id>}
     * @param includeUsage {@code stream_options.include_usage}: every chunk then has {@code "usage":null}
     *                     and a usage chunk precedes {@code [DONE]}
     * @param earlyRole    chat's role chunk goes out as soon as the request is accepted, rather than
     *                     in the same step as the first token (as vLLM sends it)
     */
    ChunkFormat(boolean chat, String bodyId, long created, String model, boolean includeUsage, boolean earlyRole) {
        this.chat = chat;
        this.includeUsage = includeUsage;
        this.earlyRole = earlyRole;
        this.bodyId = bodyId;
        this.created = created;
        this.model = model;
        this.head = "data: {\"id\":\"" + escape(bodyId) + "\",\"object\":\""
                + (chat ? "chat.completion.chunk" : "text_completion") + "\",\"created\":" + created
                + ",\"model\":\"" + escape(model) + "\",\"choices\":[";
        this.usageNull = includeUsage ? ",\"usage\":null" : "";
        this.contentOpen = utf8(head + (chat ? "{\"index\":0,\"delta\":{\"content\":\"" : "{\"index\":0,\"text\":\""));
        this.contentClose =
                chat ? (includeUsage ? CHAT_CLOSE_USAGE : CHAT_CLOSE) : (includeUsage ? TEXT_CLOSE_USAGE : TEXT_CLOSE);
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return contentOpen;
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return contentClose;
    }

    @Override
    byte[] opening(int promptTokens) {
        return chat && earlyRole ? roleChunk() : null;
    }

    @Override
    byte[] beforeFirstToken() {
        return chat && !earlyRole ? roleChunk() : null;
    }

    @Override
    byte[][] finish(Finish finish) {
        byte[] end = finishChunk(finish.reason().wireName());
        return includeUsage
                ? new byte[][] {end, usageChunk(finish.promptTokens(), finish.completionTokens()), DONE}
                : new byte[][] {end, DONE};
    }

    /** vLLM's in-stream error event (§C.3, {@code code} the integer HTTP status), then {@code [DONE]}. */
    @Override
    byte[][] streamError(String message) {
        return new byte[][] {utf8("data: " + errorJson(message, "InternalServerError", 500) + "\n\n"), DONE};
    }

    @Override
    byte[] malformed() {
        return malformedChunk();
    }

    @Override
    String body(Finish finish) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode root = json.objectNode();
        root.put("id", bodyId);
        root.put("object", chat ? "chat.completion" : "text_completion");
        root.put("created", created);
        root.put("model", model);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        if (chat) {
            ObjectNode message = choice.putObject("message");
            message.put("role", "assistant");
            message.put("content", finish.text());
            message.putArray("tool_calls");
        } else {
            choice.put("text", finish.text());
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", finish.reason().wireName());
        choice.putNull("stop_reason");
        ObjectNode usage = root.putObject("usage");
        usage.put("prompt_tokens", finish.promptTokens());
        usage.put("total_tokens", finish.promptTokens() + finish.completionTokens());
        usage.put("completion_tokens", finish.completionTokens());
        return root.toString();
    }

    /** Chat's first chunk: the assistant role with empty content. */
    byte[] roleChunk() {
        return utf8(head + "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                + "\"finish_reason\":null}]" + usageNull + "}\n\n");
    }

    byte[] finishChunk(String finishReason) {
        String choice = chat
                ? "{\"index\":0,\"delta\":{\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"" + finishReason
                        + "\",\"stop_reason\":null}]"
                : "{\"index\":0,\"text\":\"\",\"logprobs\":null,\"finish_reason\":\"" + finishReason
                        + "\",\"stop_reason\":null}]";
        return utf8(head + choice + usageNull + "}\n\n");
    }

    byte[] usageChunk(int promptTokens, int completionTokens) {
        return utf8(head + "],\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"total_tokens\":"
                + (promptTokens + completionTokens) + ",\"completion_tokens\":" + completionTokens + "}}\n\n");
    }

    /** A {@code data:} line whose JSON breaks off inside a string (the malformed-frame fault). */
    byte[] malformedChunk() {
        return utf8(head + "{\"index\":0,\"delta\":{\"content\":\"\n\n");
    }

    /** OpenAI's error body as vLLM writes it. */
    static String errorJson(String message, String type, int code) {
        return "{\"error\":{\"message\":\"" + escape(message) + "\",\"type\":\"" + escape(type)
                + "\",\"param\":null,\"code\":" + code + "}}";
    }

    static String escape(String s) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(s));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
