package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;

/**
 * llama.cpp's {@code /completion}: SSE events with the new text in {@code content} and
 * {@code tokens_predicted}; the last has {@code stop:true}, {@code stop_type} and
 * {@code timings} in milliseconds. Errors are {@code {"error":{"code","message","type"}}}.
 */
final class LlamaCppFormat extends WireFormat {
    private final String model;

    LlamaCppFormat(String model) {
        this.model = model;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8("data: {\"index\":0,\"content\":\"");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\",\"tokens\":[],\"stop\":false,\"id_slot\":0,\"tokens_predicted\":" + tokensAfter + "}\n\n");
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    byte[][] finish(Finish finish) {
        return events("data: " + last(finish, "") + "\n\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events("data: " + errorBody(SimApi.LLAMACPP, message, "server_error", 500) + "\n\n");
    }

    @Override
    String body(Finish finish) {
        return last(finish, finish.text());
    }

    private String last(Finish finish, String content) {
        double promptMs = ms(finish.prefillNanos());
        double predictedMs = ms(finish.decodeNanos());
        int predicted = finish.completionTokens();
        return "{\"index\":0,\"content\":\"" + escape(content) + "\",\"tokens\":[],\"id_slot\":0,\"stop\":true,"
                + "\"model\":\"" + escape(model) + "\",\"tokens_predicted\":" + predicted + ",\"tokens_evaluated\":"
                + finish.promptTokens() + ",\"stop_type\":\""
                + (finish.reason() == FinishReason.LENGTH ? "limit" : "eos") + "\",\"timings\":{\"cache_n\":0,"
                + "\"prompt_n\":" + finish.promptTokens() + ",\"prompt_ms\":" + promptMs
                + ",\"prompt_per_token_ms\":" + perToken(promptMs, finish.promptTokens())
                + ",\"prompt_per_second\":" + perSecond(promptMs, finish.promptTokens())
                + ",\"predicted_n\":" + predicted + ",\"predicted_ms\":" + predictedMs
                + ",\"predicted_per_token_ms\":" + perToken(predictedMs, predicted)
                + ",\"predicted_per_second\":" + perSecond(predictedMs, predicted) + "}}";
    }

    private static double perToken(double ms, int tokens) {
        return tokens == 0 ? 0 : ms / tokens;
    }

    private static double perSecond(double ms, int tokens) {
        return ms <= 0 ? 0 : tokens * 1000.0 / ms;
    }
}
