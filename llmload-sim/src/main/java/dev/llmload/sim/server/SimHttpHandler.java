package dev.llmload.sim.server;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.engine.Admission;
import dev.llmload.sim.engine.FinishReason;
import dev.llmload.sim.engine.GenerationRequest;
import dev.llmload.sim.fault.Fault;
import dev.llmload.sim.metrics.MetricsSink;
import dev.llmload.sim.truth.GroundTruthRecord;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One connection's HTTP handler: routes each request, answers the small endpoints at once and
 * hands completions to a {@link CompletionStream}. While a completion is in flight the channel
 * stops reading, so responses on a keep-alive connection never interleave.
 *
 * <p>Threading: created per channel and used only on that channel's event loop, which owns
 * {@link #current}.
 */
final class SimHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String REQUEST_ID = "x-request-id";
    static final String FAULT_HEADER = "x-llmload-sim-fault";
    static final String ECHO_HEADER = "x-llmload-sim-echo";

    /**
     * Without Jackson's per-thread buffer recycling: each request's strings start in small buffers,
     * the same on every thread. Recycled per thread, the warm-up server's buffers had grown to its
     * longest prompt, so its compiled string reader never saw a string outrun its buffer; the real
     * server's loop threads start small, and their first long prompts threw that code away and
     * had it compiled again at the start of a load (docs/performance.md, "The simulator's warm-up
     * and the first second"). Fresh buffers cost 0.3–2.6 µs more per 1.4 KB body, beside 10–12 µs
     * to tokenize its prompt (bench/sim-json-parse.sh).
     */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .recyclerPool(com.fasterxml.jackson.core.util.JsonRecyclerPools.nonRecyclingPool())
            .build());

    private static final List<String> KNOWN_PATHS = List.of(
            "/v1/models",
            "/version",
            "/health",
            "/metrics",
            "/llmload/pause",
            "/api/tags",
            "/api/version",
            "/props",
            "/info");

    private final SimServices services;
    private final Connection connection;
    private final Channel channel;
    private final ArrivalStamp arrivalStamp;
    private CompletionStream current;

    SimHttpHandler(SimServices services, Connection connection, ArrivalStamp arrivalStamp) {
        this.services = services;
        this.connection = connection;
        this.channel = connection.channel();
        this.arrivalStamp = arrivalStamp;
    }

    /**
     * Takes the request's arrival and serves it in a task of its own, after the loop's current
     * reads: when many requests come at once, every socket is read (and its arrival stamped) before
     * any of them is parsed, so one request's parsing and tokenizing is not hidden in the next
     * one's arrival but counted as its server time ({@code submitted_ms} in the ground truth).
     */
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        ArrivalStamp.Arrival arrival = arrivalStamp.take();
        request.retain();
        ctx.executor().execute(() -> {
            try {
                // A client that went away meanwhile left nothing to answer and nothing to cancel.
                if (channel.isActive()) {
                    serve(request, arrival);
                }
            } catch (RuntimeException e) {
                exceptionCaught(ctx, e); // as if thrown in the read: the connection closes
            } finally {
                request.release();
            }
        });
    }

    private void serve(FullHttpRequest request, ArrivalStamp.Arrival arrival) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String path = new QueryStringDecoder(request.uri()).path();
        HttpMethod method = request.method();
        if (!request.decoderResult().isSuccess()) {
            sendError(
                    channel,
                    HttpResponseStatus.BAD_REQUEST,
                    null,
                    "BadRequestError",
                    "malformed HTTP request",
                    false,
                    null);
            return;
        }
        if (method.equals(HttpMethod.POST) && SimApi.known(path)) {
            completion(channel, request, path, keepAlive, arrival);
            return;
        }
        switch (path) {
            case "/v1/models" -> {
                if (method.equals(HttpMethod.GET)) {
                    sendJson(channel, HttpResponseStatus.OK, models(), keepAlive);
                    return;
                }
            }
            case "/version" -> {
                if (method.equals(HttpMethod.GET)) {
                    sendJson(
                            channel,
                            HttpResponseStatus.OK,
                            "{\"version\":\""
                                    + ChunkFormat.escape(services.config().version()) + "\"}",
                            keepAlive);
                    return;
                }
            }
            case "/health" -> {
                if (method.equals(HttpMethod.GET)) {
                    send(channel, HttpResponseStatus.OK, null, new byte[0], keepAlive, null, null);
                    return;
                }
            }
            case "/metrics" -> {
                if (method.equals(HttpMethod.GET)) {
                    byte[] text = services.metrics()
                            .render(services.engine().snapshot())
                            .getBytes(StandardCharsets.UTF_8);
                    send(
                            channel,
                            HttpResponseStatus.OK,
                            "text/plain; version=0.0.4; charset=utf-8",
                            text,
                            keepAlive,
                            null,
                            null);
                    return;
                }
            }
            case "/api/tags", "/api/version", "/props", "/info" -> {
                if (method.equals(HttpMethod.GET)) {
                    sendJson(channel, HttpResponseStatus.OK, nativeInfo(path), keepAlive);
                    return;
                }
            }
            case "/llmload/pause" -> {
                if (method.equals(HttpMethod.POST)) {
                    pause(channel, request, keepAlive);
                    return;
                }
            }
            default -> {
                // falls through to 404 below
            }
        }
        boolean known = KNOWN_PATHS.contains(path) || SimApi.known(path);
        send(
                channel,
                known ? HttpResponseStatus.METHOD_NOT_ALLOWED : HttpResponseStatus.NOT_FOUND,
                HttpHeaderValues.APPLICATION_JSON.toString(),
                (known ? "{\"detail\":\"Method Not Allowed\"}" : "{\"detail\":\"Not Found\"}")
                        .getBytes(StandardCharsets.UTF_8),
                keepAlive,
                null,
                null);
    }

    /**
     * Runs the CPU-heavy part of a request (JSON body, prompt tokenization, chunk bytes) a few
     * hundred times before the server accepts connections, so that the first requests after a
     * start are not served by the interpreter: a fresh simulator would otherwise add 100 ms or
     * more to the first TTFTs a client measures.
     */
    static void warmUp(SimServices services) {
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "the quick brown fox jumps over the lazy dog ".repeat(40) + "\"}],\"max_tokens\":16,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}";
        for (int i = 0; i < 300; i++) {
            try {
                CompletionRequest request = CompletionRequest.parse(true, JSON.readTree(body));
                services.tokenizer().encode(request.promptText());
                ChunkFormat format = new ChunkFormat(true, "warm-up", 0, "m", true, false);
                format.beforeFirstToken();
                format.eventOpen(1);
                format.eventClose(1);
                format.finish(new WireFormat.Finish(FinishReason.LENGTH, 1, 16, "", 0, 0, 0, 0));
            } catch (IOException e) {
                throw new IllegalStateException("the simulator's warm-up request does not parse", e);
            }
        }
    }

    private void completion(
            Channel channel, FullHttpRequest http, String path, boolean keepAlive, ArrivalStamp.Arrival arrival) {
        String requestId = http.headers().get(REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = newRequestId();
        }
        SimApi api = SimApi.forPost(path, null);
        CompletionRequest request;
        Optional<Fault> fault;
        try {
            JsonNode body;
            try (var in = new ByteBufInputStream(http.content())) {
                body = JSON.readTree((InputStream) in);
            }
            api = SimApi.forPost(path, body);
            request = CompletionRequest.parse(api, path, body);
            fault = services.faults().choose(http.headers().get(FAULT_HEADER));
        } catch (JacksonException e) {
            badRequest(channel, requestId, api, "invalid JSON body: " + e.getOriginalMessage(), keepAlive, arrival);
            return;
        } catch (IOException | IllegalArgumentException e) {
            badRequest(channel, requestId, api, e.getMessage(), keepAlive, arrival);
            return;
        }
        if (fault.orElse(null) instanceof Fault.HttpError error) {
            String retryAfter =
                    error.status() == 429 ? Integer.toString(services.config().retryAfterSeconds()) : null;
            sendError(
                    channel,
                    HttpResponseStatus.valueOf(error.status()),
                    requestId,
                    WireFormat.errorBody(api, error.message(), error.errorType(), error.status()),
                    keepAlive,
                    retryAfter);
            groundTruthOfError(requestId, api, arrival, error.status());
            return;
        }
        int[] tokenIds = promptTokenIds(request);
        int maxModelLen = services.config().maxModelLen();
        int maxTokens = request.maxTokens() != null ? request.maxTokens() : Math.max(1, maxModelLen - tokenIds.length);
        boolean echo = services.config().echo()
                || "true".equalsIgnoreCase(http.headers().get(ECHO_HEADER));
        Words words = echo ? Words.echo(request.promptText()) : Words.DEFAULT;

        // The engine's own clock starts here, after parsing and tokenizing: its queue time and
        // Prometheus histograms are the engine's, the ground truth's times are the wire's.
        long submittedNanos = System.nanoTime();
        CompletionStream stream = new CompletionStream(
                services,
                connection,
                this::streamEnded,
                request,
                requestId,
                tokenIds.length,
                arrival,
                submittedNanos,
                fault.orElse(null),
                words,
                keepAlive);
        // A stream that errs or drops after N tokens is an engine that stopped at N: it generates no
        // token the client never gets, so the server's token counters agree with the client's whatever
        // the engine's lead over the event loop when the fault fires.
        int generated = switch (fault.orElse(null)) {
            case Fault.StreamErrorAfter e -> Math.min(maxTokens, e.tokens());
            case Fault.DisconnectAfter d -> Math.min(maxTokens, d.tokens());
            case null, default -> maxTokens;
        };
        GenerationRequest generation = new GenerationRequest(
                requestId,
                tokenIds,
                generated,
                Math.min(request.minTokens(), generated),
                request.ignoreEos(),
                submittedNanos);
        Admission admission =
                services.engine().submit(generation, new MetricsSink(services.metrics(), submittedNanos, stream));
        if (admission instanceof Admission.Rejected rejected) {
            String retryAfter = rejected.retryAfter() == null
                    ? null
                    : Long.toString(Math.max(1, rejected.retryAfter().toSeconds()));
            sendError(
                    channel,
                    HttpResponseStatus.valueOf(rejected.httpStatus()),
                    requestId,
                    WireFormat.errorBody(api, rejected.message(), rejected.errorType(), rejected.httpStatus()),
                    keepAlive,
                    retryAfter);
            groundTruthOfError(requestId, api, arrival, rejected.httpStatus());
            return;
        }
        current = stream;
        channel.config().setAutoRead(false);
        stream.begin();
    }

    /**
     * The prompt as the engine sees it: the client's ids or the text's tokens, then one placeholder
     * token per image token, so images cost prefill as their tokens would.
     */
    private int[] promptTokenIds(CompletionRequest request) {
        int[] text = request.promptTokenIds() != null
                ? request.promptTokenIds()
                : services.tokenizer().encode(request.promptText()).toArray();
        if (request.imageTokens() == 0) {
            return text;
        }
        int[] all = java.util.Arrays.copyOf(text, text.length + request.imageTokens());
        java.util.Arrays.fill(all, text.length, all.length, IMAGE_TOKEN_ID);
        return all;
    }

    /** The id that stands for an image token in the engine's prompt (any id serves; this one is cl100k's last). */
    private static final int IMAGE_TOKEN_ID = 100_255;

    /** The small info endpoints of the native servers, for a client that probes which API it faces. */
    private String nativeInfo(String path) {
        String model = ChunkFormat.escape(services.config().model());
        String version = ChunkFormat.escape(services.config().version());
        int maxModelLen = services.config().maxModelLen();
        return switch (path) {
            case "/api/tags" ->
                "{\"models\":[{\"name\":\"" + model + "\",\"model\":\"" + model
                        + "\",\"size\":0,\"details\":{\"family\":\"llmload-sim\"}}]}";
            case "/api/version" -> "{\"version\":\"" + version + "\"}";
            case "/props" ->
                "{\"default_generation_settings\":{\"n_ctx\":" + maxModelLen + "},\"total_slots\":"
                        + services.config().batching().maxNumSeqs() + ",\"model_path\":\"" + model + "\"}";
            default ->
                "{\"model_id\":\"" + model + "\",\"max_input_tokens\":" + (maxModelLen - 1) + ",\"max_total_tokens\":"
                        + maxModelLen + ",\"version\":\"" + version + "\"}";
        };
    }

    /** The response is complete: read the next request of a keep-alive connection. */
    private void streamEnded() {
        current = null;
        channel.config().setAutoRead(true);
    }

    private void pause(Channel channel, FullHttpRequest request, boolean keepAlive) {
        List<String> ms = new QueryStringDecoder(request.uri()).parameters().get("ms");
        long millis;
        try {
            millis = Long.parseLong(ms == null ? "" : ms.get(0));
        } catch (NumberFormatException e) {
            millis = -1;
        }
        if (millis <= 0) {
            sendError(
                    channel,
                    HttpResponseStatus.BAD_REQUEST,
                    null,
                    "BadRequestError",
                    "POST /llmload/pause needs ?ms=<positive milliseconds>",
                    keepAlive,
                    null);
            return;
        }
        services.engine().pause(Duration.ofMillis(millis));
        sendJson(channel, HttpResponseStatus.OK, "{\"paused_ms\":" + millis + "}", keepAlive);
    }

    private String models() {
        ObjectNode root = JSON.createObjectNode();
        root.put("object", "list");
        ObjectNode model = root.putArray("data").addObject();
        String name = services.config().model();
        model.put("id", name);
        model.put("object", "model");
        model.put("created", services.startedUnixSeconds());
        model.put("owned_by", "llmload-sim");
        model.put("root", name);
        model.putNull("parent");
        model.put("max_model_len", services.config().maxModelLen());
        model.putArray("permission");
        return root.toString();
    }

    private void badRequest(
            Channel channel,
            String requestId,
            SimApi api,
            String message,
            boolean keepAlive,
            ArrivalStamp.Arrival arrival) {
        sendError(
                channel,
                HttpResponseStatus.BAD_REQUEST,
                requestId,
                WireFormat.errorBody(api, message, "BadRequestError", 400),
                keepAlive,
                null);
        groundTruthOfError(requestId, api, arrival, 400);
    }

    private void groundTruthOfError(String requestId, SimApi api, ArrivalStamp.Arrival arrival, int status) {
        if (services.groundTruth() != null) {
            services.groundTruth()
                    .append(new GroundTruthRecord(
                            requestId,
                            arrival.unixMs(),
                            arrival.unixMicros(),
                            null,
                            null,
                            null,
                            new double[0],
                            0,
                            null,
                            0,
                            0,
                            null,
                            "http_" + status,
                            api == null ? null : api.id()));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (current != null) {
            current.clientGone();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset by the peer is an ordinary way for a load test to end; close and let channelInactive cancel.
        ctx.close();
    }

    static void sendError(
            Channel channel,
            HttpResponseStatus status,
            String requestId,
            String type,
            String message,
            boolean keepAlive,
            String retryAfter) {
        sendError(
                channel, status, requestId, ChunkFormat.errorJson(message, type, status.code()), keepAlive, retryAfter);
    }

    /** An error with {@code json} as its body, in the shape of the request's API. */
    static void sendError(
            Channel channel,
            HttpResponseStatus status,
            String requestId,
            String json,
            boolean keepAlive,
            String retryAfter) {
        send(
                channel,
                status,
                HttpHeaderValues.APPLICATION_JSON.toString(),
                json.getBytes(StandardCharsets.UTF_8),
                keepAlive,
                requestId,
                retryAfter);
    }

    private static void sendJson(Channel channel, HttpResponseStatus status, String json, boolean keepAlive) {
        send(
                channel,
                status,
                HttpHeaderValues.APPLICATION_JSON.toString(),
                json.getBytes(StandardCharsets.UTF_8),
                keepAlive,
                null,
                null);
    }

    private static void send(
            Channel channel,
            HttpResponseStatus status,
            String contentType,
            byte[] body,
            boolean keepAlive,
            String requestId,
            String retryAfter) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        if (contentType != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        if (requestId != null) {
            response.headers().set(REQUEST_ID, requestId);
        }
        if (retryAfter != null) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, retryAfter);
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        var future = channel.writeAndFlush(response);
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return Long.toHexString(random.nextLong() | Long.MIN_VALUE)
                + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
    }
}
