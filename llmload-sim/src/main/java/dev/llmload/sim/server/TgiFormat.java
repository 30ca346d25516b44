package dev.llmload.sim.server;

import dev.llmload.sim.engine.FinishReason;

/**
 * TGI {@code /generate_stream}: SSE with {@code data:} and no space, one token per event with
 * {@code index} counting tokens, and no {@code [DONE]}: the last event carries
 * {@code generated_text} and {@code details}. Errors are {@code {"error":...,"error_type":...}}.
 */
final class TgiFormat extends WireFormat {
    @Override
    boolean needsText() {
        return true;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8("data:{\"index\":" + tokensAfter + ",\"token\":{\"id\":0,\"text\":\"");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\",\"logprob\":0.0,\"special\":false},\"generated_text\":null,\"details\":null}\n\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        return events("data:{\"index\":" + (finish.completionTokens() + 1)
                + ",\"token\":{\"id\":0,\"text\":\"\",\"logprob\":0.0,\"special\":true},\"generated_text\":\""
                + escape(finish.text()) + "\",\"details\":" + details(finish) + "}\n\n");
    }

    @Override
    byte[][] streamError(String message) {
        return events("data:" + errorBody(SimApi.TGI, message, "generation", 500) + "\n\n");
    }

    @Override
    String body(Finish finish) {
        return "{\"generated_text\":\"" + escape(finish.text()) + "\",\"details\":" + details(finish) + "}";
    }

    private static String details(Finish finish) {
        String reason = finish.reason() == FinishReason.LENGTH ? "length" : "eos_token";
        return "{\"finish_reason\":\"" + reason + "\",\"generated_tokens\":" + finish.completionTokens()
                + ",\"seed\":null,\"input_length\":" + finish.promptTokens() + "}";
    }
}
