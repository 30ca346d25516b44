package dev.llmload.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.llmload.http.Endpoint;
import dev.llmload.http.ExchangeFailure;
import dev.llmload.http.KeyHeader;
import dev.llmload.http.LoadHttpClient;
import dev.llmload.http.PageFetch;
import dev.llmload.http.PageFetch.Answer;
import dev.llmload.http.ServerText;
import dev.llmload.protocol.AnthropicDialect;
import dev.llmload.protocol.ApiKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * Asks the server what it is before any load is sent: {@code /v1/models} (model name,
 * {@code max_model_len}, {@code owned_by}), {@code /version}, and where those leave the engine
 * unknown the metadata endpoints of the other engines: TGI's {@code /info}, llama.cpp's
 * {@code /props}, Ollama's {@code /api/version}. A server that cannot be reached stops the run
 * here with a one-line reason; an endpoint that does not answer just leaves its fields null.
 * Asks through a {@link LoadHttpClient} of its own (the load's code, one event loop, closed when
 * the probe ends) and reads at most {@link PageFetch#MAX_BYTES} of any answer.
 *
 * <p>Answers are read with Jackson's streaming parser into plain maps and lists ({@link #json}),
 * not with its object mapper: the probe comes before a run's first request, and setting up the
 * first object mapper of a process costs more than everything the probe reads.
 */
final class ServerProbe {

    private static final JsonFactory JSON = new JsonFactory();
    /** How long GET /v1/models may take to answer once connected. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The connect limit of the overloads that take none: {@code --connect-timeout}'s default. */
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Metadata endpoints are optional; a server that lacks one should not hold the run up. */
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(3);

    /**
     * What the server said about itself; null fields were not reported, never guessed.
     *
     * @param framework the engine, named as llmload names them: {@code vllm}, {@code sglang},
     *                  {@code tgi}, {@code llama.cpp}, {@code ollama}, {@code trtllm-serve},
     *                  {@code llmload-sim}, or the model's {@code owned_by} when it is none of these
     */
    public record ServerInfo(String model, Integer maxModelLen, String framework, String version) {}

    private ServerProbe() {}

    /** @param insecure skip TLS certificate checks, as the load's client does with {@code --insecure} */
    public static ServerInfo probe(Endpoint endpoint, String apiKey, boolean insecure) throws RunException {
        return probe(endpoint, apiKey, ApiKind.CHAT, insecure);
    }

    /**
     * @param api the API the run will speak: its key travels in that API's header (Anthropic's
     *            {@code x-api-key} with {@code anthropic-version}, else a bearer token)
     */
    public static ServerInfo probe(Endpoint endpoint, String apiKey, ApiKind api, boolean insecure)
            throws RunException {
        return probe(endpoint, apiKey, api, Map.of(), insecure, DEFAULT_CONNECT_TIMEOUT);
    }

    /**
     * @param headers        {@code --header}'s, sent after the key's, so a gateway lets the probe through as it does the load
     * @param connectTimeout {@code --connect-timeout}: the probe connects as the load does
     */
    public static ServerInfo probe(
            Endpoint endpoint,
            String apiKey,
            ApiKind api,
            Map<String, String> headers,
            boolean insecure,
            Duration connectTimeout)
            throws RunException {
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        try (Asker client = new Asker(endpoint, insecure, authHeaders(apiKey, api, headers), connectTimeout)) {
            return probe(endpoint, client, connectTimeout);
        }
    }

    private static ServerInfo probe(Endpoint endpoint, Asker client, Duration connectTimeout) throws RunException {
        String modelsUrl = endpoint.url("/models");
        // Connecting has its own limit; the answer then has TIMEOUT.
        Answer.Page models = switch (client.get(endpoint.basePath() + "/models", connectTimeout.plus(TIMEOUT))) {
            case Answer.Page page -> page;
            case Answer.TimedOut timedOut ->
                throw new RunException("server at " + endpoint + " did not answer GET " + modelsUrl + " within "
                        + TIMEOUT.toSeconds() + " s of connecting");
            case Answer.Failed(long nanos, ExchangeFailure failure) ->
                throw new RunException(
                        switch (failure) {
                            case ExchangeFailure.ConnectTimedOut f ->
                                "cannot reach " + endpoint + ": connection timed out after " + connectTimeout.toMillis()
                                        + " ms (--connect-timeout)";
                            // "Connection refused" is the system's own text for ECONNREFUSED, in both Netty transports.
                            case ExchangeFailure.ConnectFailed f ->
                                "cannot reach " + endpoint + ": "
                                        + (f.message().contains("Connection refused")
                                                ? "connection refused (is the server running?)"
                                                : f.message());
                            case ExchangeFailure.TlsFailed f ->
                                "TLS with " + endpoint + " failed: " + f.message()
                                        + " (a self-signed certificate needs --insecure)";
                            case ExchangeFailure.ConnectionLost f -> "cannot reach " + endpoint + ": " + f.message();
                            case ExchangeFailure.MalformedResponse f ->
                                "server at " + endpoint + " answered GET " + modelsUrl + " with no HTTP: "
                                        + f.message();
                            case ExchangeFailure.Aborted f ->
                                "server at " + endpoint + " " + f.message() + " to GET " + modelsUrl;
                        });
        };
        if (models.status() == 401 || models.status() == 403) {
            throw new RunException("server at " + endpoint + " refused the API key (HTTP " + models.status()
                    + "); set LLMLOAD_API_KEY or --api-key-file");
        }
        String model = null;
        Integer maxModelLen = null;
        String ownedBy = null;
        if (json(models).get("data") instanceof List<?> data
                && !data.isEmpty()
                && data.getFirst() instanceof Map<?, ?> first) {
            model = text(first.get("id"));
            ownedBy = text(first.get("owned_by"));
            maxModelLen = integer(first.get("max_model_len"));
            // llama.cpp puts its context length under meta.
            if (maxModelLen == null && first.get("meta") instanceof Map<?, ?> meta) {
                maxModelLen = integer(meta.get("n_ctx_train"));
            }
        }
        String framework = frameworkOf(ownedBy);
        String version = text(json(client.get("/version")).get("version"));
        // Only an owner that names no engine llmload knows leaves the engine to the metadata endpoints:
        // the simulator serves TGI's /info too, and is still the simulator.
        if (framework == null || !KNOWN_FRAMEWORKS.contains(framework)) {
            Map<String, Object> tgi = json(client.get("/info"));
            Map<String, Object> llamaCpp = tgi.containsKey("model_id") ? null : json(client.get("/props"));
            if (tgi.containsKey("model_id")) {
                framework = "tgi";
                version = version != null ? version : text(tgi.get("version"));
                maxModelLen = maxModelLen != null ? maxModelLen : integer(tgi.get("max_total_tokens"));
            } else if (llamaCpp.containsKey("default_generation_settings")) {
                framework = "llama.cpp";
                if (maxModelLen == null && llamaCpp.get("default_generation_settings") instanceof Map<?, ?> settings) {
                    maxModelLen = integer(settings.get("n_ctx"));
                }
            } else {
                Map<String, Object> ollama = json(client.get("/api/version"));
                if (ollama.containsKey("version")) {
                    framework = "ollama";
                    version = version != null ? version : text(ollama.get("version"));
                }
            }
        }
        return new ServerInfo(model, maxModelLen, framework, version);
    }

    /**
     * The API of {@code --api auto}: chat, when the server answered {@code /v1/models} with a model
     * (an OpenAI-compatible server). Otherwise the run stops with one line: which native API the
     * server answers and the flag that speaks it, or that it answers none llmload knows. Never a
     * silent guess.
     */
    public static ApiKind resolveAuto(Endpoint openAi, ServerInfo server, String apiKey, boolean insecure)
            throws RunException {
        return resolveAuto(openAi, server, apiKey, Map.of(), insecure, DEFAULT_CONNECT_TIMEOUT);
    }

    /** @param headers {@code --header}'s, as {@link #probe(Endpoint, String, ApiKind, Map, boolean, Duration)} sends them */
    public static ApiKind resolveAuto(
            Endpoint openAi,
            ServerInfo server,
            String apiKey,
            Map<String, String> headers,
            boolean insecure,
            Duration connectTimeout)
            throws RunException {
        if (server.model() != null) {
            return ApiKind.CHAT;
        }
        String nativeApi;
        try (Asker client = new Asker(
                openAi,
                insecure,
                authHeaders(apiKey, ApiKind.CHAT, headers),
                connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout)) {
            nativeApi = nativeApiOf(client);
        }
        if (nativeApi != null) {
            throw new RunException("the server at " + openAi.rootUrl("") + " answers no OpenAI API (/v1/models) but "
                    + nativeApi + "; give --api and --model");
        }
        throw new RunException(
                "the server at " + openAi + " answers no OpenAI API (/v1/models) and no native API llmload"
                        + " knows; give --api (" + ApiKind.names() + ") and --model");
    }

    /** Which native API the server answers, as the flag that speaks it; null for none known. */
    private static String nativeApiOf(Asker client) {
        if (json(client.get("/info")).containsKey("model_id")) {
            return "TGI's native API: use --api tgi";
        }
        if (json(client.get("/props")).containsKey("default_generation_settings")) {
            return "llama.cpp's native API: use --api llamacpp";
        }
        if (json(client.get("/api/version")).containsKey("version")) {
            return "Ollama's native API: use --api ollama or --api ollama-chat";
        }
        if (json(client.get("/get_model_info")).containsKey("model_path")) {
            return "SGLang's native API: use --api sglang";
        }
        if (json(client.get("/v2")).containsKey("extensions")) {
            return "Triton's generate extension: use --api triton";
        }
        return null;
    }

    /** The engines {@link #frameworkOf} recognises in a model's {@code owned_by}. */
    private static final java.util.Set<String> KNOWN_FRAMEWORKS =
            java.util.Set.of("vllm", "sglang", "llama.cpp", "trtllm-serve", "llmload-sim");

    /** The engine a model's {@code owned_by} names; other values are kept as they are. */
    static String frameworkOf(String ownedBy) {
        if (ownedBy == null) {
            return null;
        }
        return switch (ownedBy.toLowerCase(Locale.ROOT)) {
            case "vllm" -> "vllm";
            case "sglang" -> "sglang";
            case "llamacpp", "llama.cpp" -> "llama.cpp";
            case "tensorrt_llm" -> "trtllm-serve";
            case "llmload-sim" -> "llmload-sim";
            default -> ownedBy;
        };
    }

    /**
     * The fields the probe reads, at whatever depth: a field read above is named here, or it
     * reads as absent. Others are skipped unread, and so is every element of an array but its
     * first, so what a server sends (up to {@link PageFetch#MAX_BYTES}) does not decide how much
     * the probe keeps.
     */
    private static final java.util.Set<String> FIELDS = java.util.Set.of(
            "data",
            "id",
            "owned_by",
            "max_model_len",
            "meta",
            "n_ctx_train",
            "version",
            "model_id",
            "max_total_tokens",
            "default_generation_settings",
            "n_ctx",
            "model_path",
            "extensions");

    /**
     * The body when the answer was a 200 with a JSON object: its {@link #FIELDS} by name, each value
     * a map (an object), a list (an array, its first element only), a string, a number, a boolean or
     * null; an empty map otherwise. The parser's own limits (nesting depth, number and name lengths)
     * hold for what a server sends.
     */
    private static Map<String, Object> json(Answer answer) {
        if (!(answer instanceof Answer.Page page) || page.status() != 200) {
            return Map.of();
        }
        try (JsonParser parser = JSON.createParser(page.body(), 0, page.length())) {
            return parser.nextToken() == JsonToken.START_OBJECT ? object(parser) : Map.of();
        } catch (IOException e) {
            // Some gateways answer these paths with HTML or text; the run goes on without them.
            return Map.of();
        }
    }

    /** The object the parser is at the start of; leaves it at the object's end. */
    private static Map<String, Object> object(JsonParser parser) throws IOException {
        Map<String, Object> fields = new LinkedHashMap<>();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (FIELDS.contains(name)) {
                fields.put(name, value(parser));
            } else {
                parser.skipChildren();
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("malformed JSON object");
        }
        return fields;
    }

    private static Object value(JsonParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case START_OBJECT -> object(parser);
            case START_ARRAY -> {
                List<Object> first = new ArrayList<>(1);
                JsonToken token;
                while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                    if (token == null) {
                        throw new IOException("malformed JSON array");
                    }
                    if (first.isEmpty()) {
                        first.add(value(parser));
                    } else {
                        parser.skipChildren();
                    }
                }
                yield first;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getNumberValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> null;
        };
    }

    /**
     * The probe's client (it follows no redirect): the server's scheme, host and port, TLS as the
     * endpoint needs it (any certificate with {@code --insecure}), the key's headers on every
     * request. Paths are asked from the server's root.
     */
    private static final class Asker implements AutoCloseable {
        private final LoadHttpClient client;
        private final Map<String, String> auth;

        Asker(Endpoint endpoint, boolean insecure, Map<String, String> auth, Duration connectTimeout) {
            this.client = LoadHttpClient.beside(endpoint.root(), "llmload-probe", connectTimeout, insecure);
            this.auth = auth;
        }

        /** A metadata endpoint: optional, so a server that lacks one does not hold the run up. */
        Answer get(String path) {
            return get(path, METADATA_TIMEOUT);
        }

        Answer get(String path, Duration timeout) {
            try {
                return PageFetch.get(client, path, auth, timeout).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Answer.TimedOut(System.nanoTime());
            } catch (ExecutionException e) {
                // The future only ever completes normally; a client already closed ends here.
                return new Answer.Failed(System.nanoTime(), new ExchangeFailure.Aborted("probe stopped"));
            }
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * The headers that carry the key (never logged) for {@code api}, with the ones that API requires
     * beside it, then the user's own, which win as they do on the load's requests.
     */
    private static Map<String, String> authHeaders(String apiKey, ApiKind api, Map<String, String> extra) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        KeyHeader keyHeader = api == ApiKind.ANTHROPIC ? KeyHeader.X_API_KEY : KeyHeader.BEARER;
        if (apiKey != null && !apiKey.isEmpty()) {
            headers.put(keyHeader.headerName(), keyHeader.value(apiKey));
        }
        if (api == ApiKind.ANTHROPIC) {
            headers.putAll(AnthropicDialect.HEADERS);
        }
        headers.putAll(extra);
        return headers;
    }

    /** A string, number or boolean as the server's text, made safe to show; null for anything else. */
    private static String text(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean
                ? ServerText.clean(value.toString())
                : null;
    }

    /** A number that fits an int (a fraction cut off); null for anything else. */
    private static Integer integer(Object value) {
        return value instanceof Number number
                        && number.doubleValue() >= Integer.MIN_VALUE
                        && number.doubleValue() <= Integer.MAX_VALUE
                ? number.intValue()
                : null;
    }
}
