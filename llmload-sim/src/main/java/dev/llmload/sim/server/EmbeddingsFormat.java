package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Embeddings ({@code /v1/embeddings}, OpenAI's list of vectors) and rerank ({@code /v1/rerank},
 * the list of {@code results} with relevance scores): answered whole once the engine has read
 * the inputs (its prefill), with the input tokens as usage. Vectors and scores are fixed
 * functions of the input index: the simulator measures time, not meaning.
 */
final class EmbeddingsFormat extends WireFormat {
    private static final int DIMENSIONS = 8;
    private final CompletionRequest request;
    private final String model;

    EmbeddingsFormat(CompletionRequest request, String model) {
        this.request = request;
        this.model = model;
    }

    @Override
    byte[] eventOpen(int tokensAfter) {
        throw new IllegalStateException("embeddings and rerank answers are never streamed");
    }

    @Override
    byte[] eventClose(int tokensAfter) {
        throw new IllegalStateException("embeddings and rerank answers are never streamed");
    }

    @Override
    byte[][] finish(Finish finish) {
        throw new IllegalStateException("embeddings and rerank answers are never streamed");
    }

    @Override
    byte[][] streamError(String message) {
        throw new IllegalStateException("embeddings and rerank answers are never streamed");
    }

    @Override
    String body(Finish finish) {
        ObjectNode root = JSON.objectNode();
        if (request.api() == SimApi.RERANK) {
            root.put("id", "rerank-" + model);
            root.put("model", model);
            ArrayNode results = root.putArray("results");
            for (int i = 0; i < request.inputs(); i++) {
                ObjectNode result = results.addObject();
                result.put("index", i);
                result.put("relevance_score", 1.0 / (i + 1));
            }
            root.putObject("usage").put("total_tokens", finish.promptTokens());
        } else {
            root.put("object", "list");
            ArrayNode data = root.putArray("data");
            for (int i = 0; i < request.inputs(); i++) {
                ObjectNode item = data.addObject();
                item.put("object", "embedding");
                item.put("index", i);
                ArrayNode vector = item.putArray("embedding");
                for (int d = 0; d < DIMENSIONS; d++) {
                    vector.add(d == i % DIMENSIONS ? 1.0 : 0.0);
                }
            }
            root.put("model", model);
            ObjectNode usage = root.putObject("usage");
            usage.put("prompt_tokens", finish.promptTokens());
            usage.put("total_tokens", finish.promptTokens());
        }
        return root.toString();
    }
}
