package dev.llmload.sim.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.engine.FinishReason;
import java.time.Instant;

/**
 * The wire formats of the native APIs (reference/servers-wire-and-metrics.md §C.4–§C.9), each as
 * its server writes it. Durations in the final events are the engine's own: queue (arrival to
 * scheduling), prefill (scheduling to the first token's write) and decode (first to last token).
 */
final class NativeFormats {

    private NativeFormats() {}

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * TGI {@code /generate_stream}: SSE with {@code data:} and no space, one token per event with
     * {@code index} counting tokens, and no {@code [DONE]}: the last event carries
     * {@code generated_text} and {@code details}. Errors are {@code {"error":...,"error_type":...}}.
     */
    static final class Tgi extends WireFormat {
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

    /**
     * Triton's generate extension with a TensorRT-LLM ensemble: SSE events with the new text in
     * {@code text_output}, no token counts and no end marker (the response ends). Errors are
     * {@code {"error":"..."}}, also inside a stream.
     */
    static final class Triton extends WireFormat {
        private final String head;

        Triton(String model) {
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

    /**
     * Ollama's {@code /api/generate} and {@code /api/chat}: NDJSON, one object per line; the last
     * has {@code done:true}, the counts and the durations in nanoseconds. Errors are
     * {@code {"error":"..."}}, as a line inside a stream.
     */
    static final class Ollama extends WireFormat {
        private final boolean chat;
        private final String head;

        Ollama(boolean chat, String model, long arrivalUnixMs) {
            this.chat = chat;
            this.head = "{\"model\":\"" + escape(model) + "\",\"created_at\":\"" + Instant.ofEpochMilli(arrivalUnixMs)
                    + "\",";
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
            return utf8(new String(eventOpen(1), java.nio.charset.StandardCharsets.UTF_8) + "\n");
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
            String content = chat ? "\"message\":{\"role\":\"assistant\",\"content\":\"" + escape(text) + "\"},"
                    : "\"response\":\"" + escape(text) + "\",";
            return head + content + "\"done\":true,\"done_reason\":\""
                    + (finish.reason() == FinishReason.LENGTH ? "length" : "stop") + "\",\"total_duration\":"
                    + finish.totalNanos() + ",\"load_duration\":0,\"prompt_eval_count\":" + finish.promptTokens()
                    + ",\"prompt_eval_duration\":" + finish.prefillNanos() + ",\"eval_count\":"
                    + finish.completionTokens() + ",\"eval_duration\":" + finish.decodeNanos() + "}";
        }
    }

    /**
     * llama.cpp's {@code /completion}: SSE events with the new text in {@code content} and
     * {@code tokens_predicted}; the last has {@code stop:true}, {@code stop_type} and
     * {@code timings} in milliseconds. Errors are {@code {"error":{"code","message","type"}}}.
     */
    static final class LlamaCpp extends WireFormat {
        private final String model;

        LlamaCpp(String model) {
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

    /**
     * SGLang's native {@code /generate} with {@code stream:true}: SSE events whose {@code text} is
     * all text so far and whose {@code meta_info.completion_tokens} counts the tokens so far; ends
     * with {@code data: [DONE]}. Errors are {@code {"error":{"message":...}}}.
     */
    static final class Sglang extends WireFormat {
        private final String id;

        Sglang(String id) {
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

    /**
     * Anthropic's Messages API: named events {@code message_start}, {@code content_block_start},
     * one {@code content_block_delta} with a {@code text_delta} per token event,
     * {@code content_block_stop}, {@code message_delta} with the output tokens, {@code message_stop}.
     * Errors are an {@code error} event or body {@code {"type":"error","error":{type,message}}}.
     */
    static final class Anthropic extends WireFormat {
        private final String id;
        private final String model;

        Anthropic(String id, String model) {
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
            return events("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\""
                    + stopReason(finish) + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":"
                    + finish.completionTokens() + "}}\n\n", "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
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

    /**
     * OpenAI's Responses API: named events {@code response.created}, one
     * {@code response.output_text.delta} per token event, then {@code response.completed} with the
     * usage, or {@code response.incomplete} (reason {@code max_output_tokens}) when the output limit
     * cut the answer. Errors are an {@code error} event or OpenAI's error body.
     */
    static final class Responses extends WireFormat {
        private final String id;
        private final String model;
        private final long created;
        private final Integer maxOutputTokens;
        private int sequence;

        Responses(String id, String model, long created, Integer maxOutputTokens) {
            this.id = "resp_" + id;
            this.model = model;
            this.created = created;
            this.maxOutputTokens = maxOutputTokens;
        }

        @Override
        byte[] opening(int promptTokens) {
            return utf8("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":"
                    + sequence++ + ",\"response\":" + response("in_progress", null, "", null) + "}\n\n");
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
                    + ",\"response\":" + response(cut ? "incomplete" : "completed", finish, finish.text(),
                    cut ? "max_output_tokens" : null) + "}\n\n");
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

    /**
     * Embeddings ({@code /v1/embeddings}, OpenAI's list of vectors) and rerank ({@code /v1/rerank},
     * the list of {@code results} with relevance scores): answered whole once the engine has read
     * the inputs (its prefill), with the input tokens as usage. Vectors and scores are fixed
     * functions of the input index: the simulator measures time, not meaning.
     */
    static final class Embeddings extends WireFormat {
        private static final int DIMENSIONS = 8;
        private final CompletionRequest request;
        private final String model;

        Embeddings(CompletionRequest request, String model) {
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
}
