package dev.llmload.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What every request carries besides its prompt, so a service is measured as it is deployed:
 * headers ({@code --header}, for gateways and routing), fields merged into the body
 * ({@code --extra-body}, e.g. a reasoning model's switches) and sampling parameters. Immutable.
 *
 * @param headers     name to value, in the order given; sent after llmload's own, so they win
 * @param extraBody   fields put into every request body over the dialect's own (a shallow merge, as
 *                    {@code vllm bench serve --extra-body} does); null for none
 * @param temperature sent when not null
 * @param topP        sent when not null
 * @param topK        sent when not null
 * @param stop        stop strings; empty for none
 */
public record RequestExtras(
        Map<String, String> headers,
        ObjectNode extraBody,
        Double temperature,
        Double topP,
        Integer topK,
        List<String> stop) {

    /** Nothing beyond the prompt and the dialect's own fields. */
    public static final RequestExtras NONE = new RequestExtras(Map.of(), null, null, null, null, List.of());

    /** What a header holding a credential is recorded as. */
    public static final String REDACTED = "[redacted]";

    /** Headers the HTTP client owns: a value of the user's would corrupt the exchange. */
    private static final Set<String> RESERVED = Set.of("content-length", "transfer-encoding", "connection", "upgrade");

    public RequestExtras {
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        for (Map.Entry<String, String> header : headers.entrySet()) {
            checkHeader(header.getKey(), header.getValue());
        }
        extraBody = extraBody == null ? null : extraBody.deepCopy();
        stop = stop == null ? List.of() : List.copyOf(stop);
        if (temperature != null && !(temperature >= 0)) {
            throw new IllegalArgumentException("--temperature must be 0 or more, got " + temperature);
        }
        if (topP != null && !(topP > 0 && topP <= 1)) {
            throw new IllegalArgumentException("--top-p must be above 0 and at most 1, got " + topP);
        }
        if (topK != null && topK < 1 && topK != -1) {
            throw new IllegalArgumentException("--top-k must be at least 1 (or -1: all tokens), got " + topK);
        }
        if (stop.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--stop: an empty stop string");
        }
    }

    /**
     * Extras from the command line's text.
     *
     * @param headers   {@code NAME:VALUE} each
     * @param extraBody a JSON object, or null
     * @throws IllegalArgumentException with a one-line reason
     */
    public static RequestExtras parse(
            List<String> headers, String extraBody, Double temperature, Double topP, Integer topK, List<String> stop) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String header : headers == null ? List.<String>of() : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                // Not echoed: a mistyped header may be a credential.
                throw new IllegalArgumentException("--header: expected NAME:VALUE, e.g. 'x-route: pool-a'");
            }
            byName.put(
                    header.substring(0, colon).strip(),
                    header.substring(colon + 1).strip());
        }
        ObjectNode body = null;
        if (extraBody != null) {
            JsonNode node;
            try {
                node = Mapper.INSTANCE.readTree(extraBody);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException("--extra-body: not JSON: " + e.getOriginalMessage());
            }
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalArgumentException("--extra-body: expected a JSON object, e.g. {\"top_k\": 20}");
            }
            body = object;
        }
        return new RequestExtras(byName, body, temperature, topP, topK, stop);
    }

    private static void checkHeader(String name, String value) {
        if (name.isEmpty() || !name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
            // Not echoed: a name that is not one may hold the credential that should have followed it.
            throw new IllegalArgumentException("--header: a header name is letters, digits and !#$%&'*+-.^_`|~ "
                    + "only, before the colon of NAME:VALUE");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("--header: " + name + " is set by the HTTP client itself");
        }
        if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            throw new IllegalArgumentException("--header " + name + ": a value may not hold a line break");
        }
    }

    /** The extra body fields (a copy); null for none. */
    @Override
    public ObjectNode extraBody() {
        return extraBody == null ? null : extraBody.deepCopy();
    }

    /** Whether a header of this name likely holds a credential, so that its value is never written anywhere. */
    public static boolean isCredential(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.contains("authorization")
                || lower.contains("key")
                || lower.contains("token")
                || lower.contains("secret")
                || lower.contains("cookie")
                || lower.contains("password");
    }

    /** The headers as a record may show them: credentials' values replaced by {@link #REDACTED}. */
    public Map<String, String> redactedHeaders() {
        Map<String, String> shown = new LinkedHashMap<>();
        headers.forEach((name, value) -> shown.put(name, isCredential(name) ? REDACTED : value));
        return shown;
    }

    /** A typed {@code NAME:VALUE} as a record may show it. */
    public static String redactArgument(String header) {
        int colon = header.indexOf(':');
        String name = colon < 0 ? header : header.substring(0, colon);
        return isCredential(name) ? name.strip() + ": " + REDACTED : header;
    }

    /** Whether any sampling parameter is set. */
    public boolean samples() {
        return temperature != null || topP != null || topK != null || !stop.isEmpty();
    }

    /**
     * Why {@code api} cannot carry these sampling parameters, in one line; null when it can. Each
     * dialect writes them where its servers read them ({@link #writeSampling}).
     */
    public String refusal(ApiKind api) {
        return switch (api) {
            case EMBEDDINGS, RERANK ->
                samples() ? "--temperature, --top-p, --top-k and --stop do not apply to --api " + api.cliName() : null;
            case RESPONSES ->
                topK != null || !stop.isEmpty()
                        ? "the Responses API (--api responses) has no top_k or stop; put such fields in --extra-body"
                        : null;
            case TRITON ->
                !stop.isEmpty()
                        ? "--api triton: the stop input differs by model; put it in --extra-body (e.g. {\"stop_words\": [...]})"
                        : null;
            default -> null;
        };
    }

    /**
     * Writes {@code top_p}, {@code top_k} and the stop strings into the object being written; each
     * dialect writes the temperature itself (TGI has its own rule for it).
     *
     * @param stopName the field the dialect's servers read stop strings from
     */
    void writeSampling(JsonGenerator json, String stopName) throws IOException {
        if (topP != null) {
            json.writeNumberField("top_p", topP);
        }
        if (topK != null) {
            json.writeNumberField("top_k", topK);
        }
        if (!stop.isEmpty()) {
            json.writeArrayFieldStart(stopName);
            for (String text : stop) {
                json.writeString(text);
            }
            json.writeEndArray();
        }
    }

    /** {@code body} with the extra fields put over its own; the same array when there are none. */
    byte[] merged(byte[] body) {
        if (extraBody == null) {
            return body;
        }
        try {
            ObjectNode node = (ObjectNode) Mapper.INSTANCE.readTree(body);
            node.setAll(extraBody);
            return Mapper.INSTANCE.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Made on first use, by a run with {@code --extra-body}: a process's first object mapper costs
     * about 0.06 CPU-s to set up, which a run without it need not pay before its first request.
     */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = new ObjectMapper();
    }
}
