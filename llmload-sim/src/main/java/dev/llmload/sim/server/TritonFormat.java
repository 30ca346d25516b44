package dev.llmload.sim.server;

/**
 * Triton's generate extension with a TensorRT-LLM ensemble: SSE events with the new text in
 * {@code text_output}, no token counts and no end marker (the response ends). Errors are
 * {@code {"error":"..."}}, also inside a stream.
 */
final class TritonFormat extends WireFormat {
    private final String head;

    TritonFormat(String model) {
        head = "data: {\"model_name\":\"" + escape(model) + "\",\"model_version\":\"1\",\"sequence_end\":false,"
                + "\"sequence_id\":0,\"sequence_start\":false,\"text_output\":\"";
    }

    @Override
    boolean needsText() {
        return true;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        return utf8(head);
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        return utf8("\"}\n\n");
    }

    @Override
    byte[][] finish(Finish finish) {
        return new byte[0][];
    }

    @Override
    byte[][] streamError(String message) {
        return events("data: " + errorBody(SimApi.TRITON, message, null, 500) + "\n\n");
    }

    @Override
    String body(Finish finish) {
        return head.substring("data: ".length()) + escape(finish.text()) + "\"}";
    }
}
