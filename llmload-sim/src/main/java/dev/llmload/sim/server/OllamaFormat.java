package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Ollama's {@code /api/generate} and {@code /api/chat}: NDJSON, one object per line; the last
 * has {@code done:true}, the counts and the durations in nanoseconds. Errors are
 * {@code {"error":"..."}}, as a line inside a stream.
 */
final class OllamaFormat extends WireFormat {
    private final boolean chat;
    private final String head;

    OllamaFormat(boolean chat, String model, long arrivalUnixMs) {
        this.chat = chat;
        this.head =
                "{\"model\":\"" + escape(model) + "\",\"created_at\":\"" + Instant.ofEpochMilli(arrivalUnixMs) + "\",";
    }

    @Override
    String streamContentType() {
        return "application/x-ndjson";
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8(head + (chat ? "\"message\":{\"role\":\"assistant\",\"content\":\"" : "\"response\":\""));
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8(chat ? "\"},\"done\":false}\n" : "\",\"done\":false}\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        return events(last(finish, "") + "\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events(errorBody(SimApi.OLLAMA, message, null, 500) + "\n");
    }

    @Override
    byte[] malformed() {
        return utf8(new String(eventOpen(1), StandardCharsets.UTF_8) + "\n");
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    String body(Finish finish) {
        return last(finish, finish.text());
    }

    private String last(Finish finish, String text) {
        String content = chat
                ? "\"message\":{\"role\":\"assistant\",\"content\":\"" + escape(text) + "\"},"
                : "\"response\":\"" + escape(text) + "\",";
        return head + content + "\"done\":true,\"done_reason\":\""
                + (finish.reason() == FinishReason.LENGTH ? "length" : "stop") + "\",\"total_duration\":"
                + finish.totalNanos() + ",\"load_duration\":0,\"prompt_eval_count\":" + finish.promptTokens()
                + ",\"prompt_eval_duration\":" + finish.prefillNanos() + ",\"eval_count\":"
                + finish.completionTokens() + ",\"eval_duration\":" + finish.decodeNanos() + "}";
    }
}
