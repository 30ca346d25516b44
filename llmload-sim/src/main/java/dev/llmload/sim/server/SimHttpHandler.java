package dev.llmload.sim.server;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmload.sim.engine.Admission;
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

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> KNOWN_PATHS = List.of("/v1/chat/completions", "/v1/completions",
            "/v1/models", "/version", "/health", "/metrics", "/llmload/pause");

    private final SimServices services;
    private final Connection connection;
    private final Channel channel;
    private CompletionStream current;

    SimHttpHandler(SimServices services, Connection connection) {
        this.services = services;
        this.connection = connection;
        this.channel = connection.channel();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        long arrivalNanos = System.nanoTime();
        long arrivalUnixMs = System.currentTimeMillis();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String path = new QueryStringDecoder(request.uri()).path();
        HttpMethod method = request.method();
        if (!request.decoderResult().isSuccess()) {
            sendError(channel, HttpResponseStatus.BAD_REQUEST, null, "BadRequestError", "malformed HTTP request",
                    false, null);
            return;
        }
        switch (path) {
            case "/v1/chat/completions", "/v1/completions" -> {
                if (method.equals(HttpMethod.POST)) {
                    completion(channel, request, path.equals("/v1/chat/completions"), keepAlive, arrivalNanos,
                            arrivalUnixMs);
                    return;
                }
            }
            case "/v1/models" -> {
                if (method.equals(HttpMethod.GET)) {
                    sendJson(channel, HttpResponseStatus.OK, models(), keepAlive);
                    return;
                }
            }
            case "/version" -> {
                if (method.equals(HttpMethod.GET)) {
                    sendJson(channel, HttpResponseStatus.OK,
                            "{\"version\":\"" + ChunkFormat.escape(services.config().version()) + "\"}", keepAlive);
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
                    byte[] text = services.metrics().render(services.engine().snapshot())
                            .getBytes(StandardCharsets.UTF_8);
                    send(channel, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", text, keepAlive,
                            null, null);
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
        boolean known = KNOWN_PATHS.contains(path);
        send(channel, known ? HttpResponseStatus.METHOD_NOT_ALLOWED : HttpResponseStatus.NOT_FOUND,
                HttpHeaderValues.APPLICATION_JSON.toString(),
                (known ? "{\"detail\":\"Method Not Allowed\"}" : "{\"detail\":\"Not Found\"}")
                        .getBytes(StandardCharsets.UTF_8), keepAlive, null, null);
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
                ChunkFormat format = new ChunkFormat(true, "warm-up", 0, "m", true);
                format.roleChunk();
                format.contentOpen();
                format.contentClose();
                format.finishChunk("length");
                format.usageChunk(1, 16);
            } catch (IOException e) {
                throw new IllegalStateException("the simulator's warm-up request does not parse", e);
            }
        }
    }

    private void completion(Channel channel, FullHttpRequest http, boolean chat, boolean keepAlive,
            long arrivalNanos, long arrivalUnixMs) {
        String requestId = http.headers().get(REQUEST_ID);
        if (requestId == null || requestId.isBlank()) {
            requestId = newRequestId();
        }
        CompletionRequest request;
        Optional<Fault> fault;
        try {
            JsonNode body;
            try (var in = new ByteBufInputStream(http.content())) {
                body = JSON.readTree((InputStream) in);
            }
            request = CompletionRequest.parse(chat, body);
            fault = services.faults().choose(http.headers().get(FAULT_HEADER));
        } catch (JacksonException e) {
            badRequest(channel, requestId, "invalid JSON body: " + e.getOriginalMessage(), keepAlive, arrivalUnixMs);
            return;
        } catch (IOException | IllegalArgumentException e) {
            badRequest(channel, requestId, e.getMessage(), keepAlive, arrivalUnixMs);
            return;
        }
        if (fault.orElse(null) instanceof Fault.HttpError error) {
            String retryAfter = error.status() == 429 ? Integer.toString(services.config().retryAfterSeconds()) : null;
            sendError(channel, HttpResponseStatus.valueOf(error.status()), requestId, error.errorType(),
                    error.message(), keepAlive, retryAfter);
            groundTruthOfError(requestId, arrivalUnixMs, error.status());
            return;
        }
        int[] tokenIds = request.promptTokenIds() != null
                ? request.promptTokenIds()
                : services.tokenizer().encode(request.promptText()).toArray();
        int maxModelLen = services.config().maxModelLen();
        int maxTokens = request.maxTokens() != null ? request.maxTokens() : Math.max(1, maxModelLen - tokenIds.length);
        boolean echo = services.config().echo() || "true".equalsIgnoreCase(http.headers().get(ECHO_HEADER));
        Words words = echo ? Words.echo(request.promptText()) : Words.DEFAULT;

        CompletionStream stream = new CompletionStream(services, connection, this::streamEnded, request, requestId,
                tokenIds.length, arrivalNanos, arrivalUnixMs, fault.orElse(null), words, keepAlive);
        GenerationRequest generation = new GenerationRequest(requestId, tokenIds, maxTokens, request.minTokens(),
                request.ignoreEos(), arrivalNanos);
        Admission admission = services.engine().submit(generation,
                new MetricsSink(services.metrics(), arrivalNanos, stream));
        if (admission instanceof Admission.Rejected rejected) {
            String retryAfter = rejected.retryAfter() == null ? null
                    : Long.toString(Math.max(1, rejected.retryAfter().toSeconds()));
            sendError(channel, HttpResponseStatus.valueOf(rejected.httpStatus()), requestId, rejected.errorType(),
                    rejected.message(), keepAlive, retryAfter);
            groundTruthOfError(requestId, arrivalUnixMs, rejected.httpStatus());
            return;
        }
        current = stream;
        channel.config().setAutoRead(false);
        stream.begin();
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
            sendError(channel, HttpResponseStatus.BAD_REQUEST, null, "BadRequestError",
                    "POST /llmload/pause needs ?ms=<positive milliseconds>", keepAlive, null);
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

    private void badRequest(Channel channel, String requestId, String message, boolean keepAlive, long arrivalUnixMs) {
        sendError(channel, HttpResponseStatus.BAD_REQUEST, requestId, "BadRequestError", message, keepAlive, null);
        groundTruthOfError(requestId, arrivalUnixMs, 400);
    }

    private void groundTruthOfError(String requestId, long arrivalUnixMs, int status) {
        if (services.groundTruth() != null) {
            services.groundTruth().append(new GroundTruthRecord(requestId, arrivalUnixMs, null, new double[0], 0, 0,
                    0, null, "http_" + status));
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

    static void sendError(Channel channel, HttpResponseStatus status, String requestId, String type, String message,
            boolean keepAlive, String retryAfter) {
        byte[] body = ChunkFormat.errorJson(message, type, status.code()).getBytes(StandardCharsets.UTF_8);
        send(channel, status, HttpHeaderValues.APPLICATION_JSON.toString(), body, keepAlive, requestId, retryAfter);
    }

    private static void sendJson(Channel channel, HttpResponseStatus status, String json, boolean keepAlive) {
        send(channel, status, HttpHeaderValues.APPLICATION_JSON.toString(), json.getBytes(StandardCharsets.UTF_8),
                keepAlive, null, null);
    }

    private static void send(Channel channel, HttpResponseStatus status, String contentType, byte[] body,
            boolean keepAlive, String requestId, String retryAfter) {
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
        return Long.toHexString(random.nextLong() | Long.MIN_VALUE) + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
    }
}
