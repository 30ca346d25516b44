package dev.llmload.protocol;

import java.util.List;

/**
 * Streamed answers of each native dialect, written from the servers' documented wire formats
 * (reference/servers-wire-and-metrics.md §C, checked against each server's docs), message by
 * message as the server frames them, with what the dialect's decoder must report for them.
 *
 * @param messages    the framed messages of a complete answer, in order
 * @param expected    the decoder's events for them, as {@link RecordingEvents} writes them, without times
 * @param errorTail   a message in the dialect's own error shape, sent after the first message
 * @param errorEvent  the event it must give
 * @param contentType the media type the server answers with
 */
public record DialectFixtures(
        ApiKind api,
        List<String> messages,
        List<String> expected,
        String errorTail,
        String errorEvent,
        String contentType) {

    private static final String SSE = "text/event-stream";

    public String stream() {
        return String.join("", messages);
    }

    /** The answer without its last message: for every dialect with an end marker, one cut short. */
    public String truncated() {
        return String.join("", messages.subList(0, messages.size() - 1));
    }

    public static final DialectFixtures TGI = new DialectFixtures(
            ApiKind.TGI,
            List.of(
                    "data:{\"index\":1,\"token\":{\"id\":578,\"text\":\" The\",\"logprob\":-0.17,\"special\":false},\"generated_text\":null,\"details\":null}\n\n",
                    "data:{\"index\":2,\"token\":{\"id\":3363,\"text\":\" sky\",\"logprob\":-0.05,\"special\":false},\"generated_text\":null,\"details\":null}\n\n",
                    "data:{\"index\":3,\"token\":{\"id\":2,\"text\":\"</s>\",\"logprob\":-0.41,\"special\":true},\"generated_text\":\"The sky\",\"details\":{\"finish_reason\":\"eos_token\",\"generated_tokens\":3,\"seed\":null,\"input_length\":7}}\n\n"),
            List.of(
                    "text content= The reasoning=null",
                    "tokens 1",
                    "text content= sky reasoning=null",
                    "tokens 1",
                    "usage 7/3",
                    "finish eos_token",
                    "end"),
            "data:{\"error\":\"Request failed during generation: Server error: CUDA out of memory\",\"error_type\":\"generation\"}\n\n",
            "error Request failed during generation: Server error: CUDA out of memory (generation)",
            SSE);

    public static final DialectFixtures TRITON = new DialectFixtures(
            ApiKind.TRITON,
            List.of(
                    "data: {\"model_name\":\"ensemble\",\"model_version\":\"1\",\"sequence_end\":false,\"sequence_id\":0,\"sequence_start\":false,\"text_output\":\" Machine\"}\n\n",
                    "data: {\"model_name\":\"ensemble\",\"model_version\":\"1\",\"sequence_end\":false,\"sequence_id\":0,\"sequence_start\":false,\"text_output\":\" learning\"}\n\n",
                    "data: {\"model_name\":\"ensemble\",\"model_version\":\"1\",\"sequence_end\":false,\"sequence_id\":0,\"sequence_start\":false,\"text_output\":\" is\"}\n\n"),
            List.of(
                    "text content= Machine reasoning=null",
                    "text content= learning reasoning=null",
                    "text content= is reasoning=null"),
            "data: {\"error\":\"in ensemble 'ensemble', Executor failed process requestId 1 due to the following error\"}\n\n",
            "error in ensemble 'ensemble', Executor failed process requestId 1 due to the following error",
            SSE);

    public static final DialectFixtures OLLAMA = new DialectFixtures(
            ApiKind.OLLAMA,
            List.of(
                    "{\"model\":\"llama3.2\",\"created_at\":\"2023-08-04T08:52:19.385406455-07:00\",\"response\":\"The\",\"done\":false}\n",
                    "{\"model\":\"llama3.2\",\"created_at\":\"2023-08-04T08:52:19.485406455-07:00\",\"response\":\" sky\",\"done\":false}\n",
                    "{\"model\":\"llama3.2\",\"created_at\":\"2023-08-04T19:22:45.499127Z\",\"response\":\"\",\"done\":true,\"done_reason\":\"stop\",\"context\":[1,2,3],\"total_duration\":10706818083,\"load_duration\":6338219291,\"prompt_eval_count\":26,\"prompt_eval_duration\":130079000,\"eval_count\":2,\"eval_duration\":4232710000}\n"),
            List.of(
                    "text content=The reasoning=null",
                    "text content= sky reasoning=null",
                    "usage 26/2",
                    "finish stop",
                    "server load=6338.219291 prefill=130.079 decode=4232.71 total=10706.818083 cached=-1",
                    "end"),
            "{\"error\":\"model requires more system memory (5.6 GiB) than is available (1.2 GiB)\"}\n",
            "error model requires more system memory (5.6 GiB) than is available (1.2 GiB)",
            "application/x-ndjson");

    public static final DialectFixtures OLLAMA_CHAT = new DialectFixtures(
            ApiKind.OLLAMA_CHAT,
            List.of(
                    "{\"model\":\"qwen3\",\"created_at\":\"2025-06-01T10:00:00.1Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\",\"thinking\":\"Hmm\"},\"done\":false}\n",
                    "{\"model\":\"qwen3\",\"created_at\":\"2025-06-01T10:00:00.2Z\",\"message\":{\"role\":\"assistant\",\"content\":\"Hello\",\"images\":null},\"done\":false}\n",
                    "{\"model\":\"qwen3\",\"created_at\":\"2025-06-01T10:00:00.3Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"length\",\"total_duration\":4883583458,\"load_duration\":1334875,\"prompt_eval_count\":26,\"prompt_eval_duration\":342546000,\"eval_count\":2,\"eval_duration\":4535599000}\n"),
            List.of(
                    "text content=null reasoning=Hmm",
                    "text content=Hello reasoning=null",
                    "usage 26/2",
                    "finish length",
                    "server load=1.334875 prefill=342.546 decode=4535.599 total=4883.583458 cached=-1",
                    "end"),
            "{\"error\":\"an error was encountered while running the model: unexpected EOF\"}\n",
            "error an error was encountered while running the model: unexpected EOF",
            "application/x-ndjson");

    public static final DialectFixtures LLAMACPP = new DialectFixtures(
            ApiKind.LLAMACPP,
            List.of(
                    "data: {\"index\":0,\"content\":\" Paris\",\"tokens\":[],\"stop\":false,\"id_slot\":-1,\"tokens_predicted\":1,\"tokens_evaluated\":7}\n\n",
                    "data: {\"index\":0,\"content\":\".\",\"tokens\":[],\"stop\":false,\"id_slot\":-1,\"tokens_predicted\":2,\"tokens_evaluated\":7}\n\n",
                    "data: {\"index\":0,\"content\":\"\",\"tokens\":[],\"id_slot\":0,\"stop\":true,\"model\":\"gpt-3.5-turbo\",\"tokens_predicted\":2,\"tokens_evaluated\":7,\"generation_settings\":{\"n_predict\":2},\"prompt\":\"The capital of France is\",\"has_new_line\":false,\"truncated\":false,\"stop_type\":\"eos\",\"stopping_word\":\"\",\"tokens_cached\":8,\"timings\":{\"cache_n\":0,\"prompt_n\":7,\"prompt_ms\":41.2,\"prompt_per_token_ms\":5.9,\"prompt_per_second\":169.9,\"predicted_n\":2,\"predicted_ms\":180.3,\"predicted_per_token_ms\":90.1,\"predicted_per_second\":11.1}}\n\n"),
            List.of(
                    "text content= Paris reasoning=null",
                    "text content=. reasoning=null",
                    "usage 7/2",
                    "finish eos",
                    "server load=NaN prefill=41.2 decode=180.3 total=NaN cached=0",
                    "end"),
            "data: {\"error\":{\"code\":500,\"message\":\"Context size has been exceeded.\",\"type\":\"exceed_context_size_error\"}}\n\n",
            "error Context size has been exceeded.",
            SSE);

    public static final DialectFixtures SGLANG = new DialectFixtures(
            ApiKind.SGLANG,
            List.of(
                    "data: {\"text\":\" The\",\"output_ids\":[578],\"meta_info\":{\"id\":\"a1\",\"finish_reason\":null,\"prompt_tokens\":7,\"completion_tokens\":1,\"cached_tokens\":2}}\n\n",
                    "data: {\"text\":\" The sky is\",\"output_ids\":[578,3363,374],\"meta_info\":{\"id\":\"a1\",\"finish_reason\":null,\"prompt_tokens\":7,\"completion_tokens\":3,\"cached_tokens\":2}}\n\n",
                    "data: {\"text\":\" The sky is blue\",\"output_ids\":[578,3363,374,6437],\"meta_info\":{\"id\":\"a1\",\"finish_reason\":{\"type\":\"length\",\"length\":4},\"prompt_tokens\":7,\"completion_tokens\":4,\"cached_tokens\":2,\"e2e_latency\":0.25}}\n\n",
                    "data: [DONE]\n\n"),
            List.of(
                    "text content= The reasoning=null",
                    "tokens 1",
                    "text content= sky is reasoning=null",
                    "tokens 2",
                    "text content= blue reasoning=null",
                    "tokens 1",
                    "finish length",
                    "usage 7/4",
                    "server load=NaN prefill=NaN decode=NaN total=250.0 cached=2",
                    "end"),
            "data: {\"error\":{\"message\":\"The server is busy\"}}\n\n",
            "error The server is busy",
            SSE);

    public static final DialectFixtures ANTHROPIC = new DialectFixtures(
            ApiKind.ANTHROPIC,
            List.of(
                    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-x\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n",
                    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n",
                    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Let me see\"}}\n\n",
                    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EqQB\"}}\n\n",
                    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                    "event: ping\ndata: {\"type\": \"ping\"}\n\n",
                    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
                    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n",
                    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"!\"}}\n\n",
                    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
                    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}\n\n",
                    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"),
            List.of(
                    "usage 25/1",
                    "text content=null reasoning=Let me see",
                    "text content=Hello reasoning=null",
                    "text content=! reasoning=null",
                    "finish end_turn",
                    "usage 25/15",
                    "end"),
            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
            "error Overloaded (overloaded_error)",
            SSE);

    public static final DialectFixtures RESPONSES = new DialectFixtures(
            ApiKind.RESPONSES,
            List.of(
                    "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\",\"output\":[],\"usage\":null}}\n\n",
                    "event: response.reasoning_text.delta\ndata: {\"type\":\"response.reasoning_text.delta\",\"sequence_number\":1,\"item_id\":\"rs_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Think\"}\n\n",
                    "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\"Hi\"}\n\n",
                    "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":3,\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\" there\"}\n\n",
                    "event: response.output_text.done\ndata: {\"type\":\"response.output_text.done\",\"sequence_number\":4,\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"text\":\"Hi there\"}\n\n",
                    "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":5,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"error\":null,\"incomplete_details\":null,\"usage\":{\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":3,\"output_tokens_details\":{\"reasoning_tokens\":1},\"total_tokens\":15}}}\n\n"),
            List.of(
                    "text content=null reasoning=Think",
                    "text content=Hi reasoning=null",
                    "text content= there reasoning=null",
                    "usage 12/3",
                    "finish completed",
                    "end"),
            "event: error\ndata: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"Rate limit reached\",\"param\":null,\"sequence_number\":2}\n\n",
            "error Rate limit reached",
            SSE);

    /** Every streaming native dialect. */
    public static final List<DialectFixtures> STREAMING =
            List.of(TGI, TRITON, OLLAMA, OLLAMA_CHAT, LLAMACPP, SGLANG, ANTHROPIC, RESPONSES);

    public Dialect dialect() {
        return Dialect.of(new RequestOptions(api, "scripted", true, false, null));
    }

    @Override
    public String toString() {
        return api.cliName();
    }
}
