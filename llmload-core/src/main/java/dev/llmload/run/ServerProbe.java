package dev.llmload.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmload.http.Endpoint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Asks the server what it serves before any load is sent: {@code /v1/models} (model name,
 * {@code max_model_len}, {@code owned_by}) and {@code /version}. A server that cannot be reached
 * stops the run here with a one-line reason. Uses the JDK client, apart from the load's.
 */
public final class ServerProbe {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * What the server said about itself; null fields were not reported.
     *
     * @param ownedBy {@code owned_by} of the model entry: vLLM says {@code vllm}, the simulator {@code llmload-sim}
     */
    public record ServerInfo(String model, Integer maxModelLen, String ownedBy, String version) {}

    private ServerProbe() {}

    public static ServerInfo probe(Endpoint endpoint, String apiKey) throws RunException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();
        String modelsUrl = endpoint.url("/models");
        HttpResponse<String> models;
        try {
            models = client.send(request(modelsUrl, apiKey), HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException e) {
            throw new RunException("cannot reach " + endpoint + ": connection timed out after " + TIMEOUT.toSeconds() + " s");
        } catch (ConnectException e) {
            throw new RunException("cannot reach " + endpoint + ": connection refused (is the server running?)");
        } catch (HttpTimeoutException e) {
            throw new RunException("server at " + endpoint + " did not answer GET " + modelsUrl + " within " + TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            throw new RunException("cannot reach " + endpoint + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunException("interrupted while contacting " + endpoint);
        }
        if (models.statusCode() == 401 || models.statusCode() == 403) {
            throw new RunException("server at " + endpoint + " refused the API key (HTTP " + models.statusCode()
                    + "); set LLMLOAD_API_KEY or --api-key-file");
        }
        String model = null;
        Integer maxModelLen = null;
        String ownedBy = null;
        if (models.statusCode() == 200) {
            try {
                JsonNode data = JSON.readTree(models.body()).path("data");
                if (data.isArray() && !data.isEmpty()) {
                    JsonNode first = data.get(0);
                    model = textOrNull(first.get("id"));
                    ownedBy = textOrNull(first.get("owned_by"));
                    JsonNode len = first.get("max_model_len");
                    maxModelLen = len != null && len.isInt() ? len.asInt() : null;
                }
            } catch (IOException ignored) {
                // Some gateways answer /models with something else; the run can go on without it.
            }
        }
        return new ServerInfo(model, maxModelLen, ownedBy, version(client, endpoint, apiKey));
    }

    private static String version(HttpClient client, Endpoint endpoint, String apiKey) {
        try {
            HttpResponse<String> response = client.send(request(endpoint.rootUrl("/version"), apiKey),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return textOrNull(JSON.readTree(response.body()).get("version"));
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    private static HttpRequest request(String url, String apiKey) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(java.net.URI.create(url)).timeout(TIMEOUT).GET();
        if (apiKey != null && !apiKey.isEmpty()) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        return builder.build();
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
