package dev.llmload.config;

import dev.llmload.http.Endpoint;
import dev.llmload.protocol.ApiKind;

/**
 * The server and how to talk to it. The API key is not part of it: it is read where the run
 * starts (environment or key file) and goes only into the Authorization header.
 *
 * @param url       the server as written, checked; null when the embedded simulator is the target
 * @param model     the model name to send; null for the first one the server lists
 * @param ignoreEos whether {@code ignore_eos} is sent
 * @param insecure  whether the server's TLS certificate goes unchecked
 */
public record Target(ServerUrl url, ApiKind api, String model, boolean stream, boolean ignoreEos, boolean insecure) {

    public Target {
        if (api == null) {
            throw new ConfigException("--api: an API is required");
        }
    }

    /** A server URL as written, and the OpenAI API base it names (the /v1 prefix added unless present). */
    public record ServerUrl(String text, Endpoint endpoint) {

        public ServerUrl {
            if (text == null || endpoint == null) {
                throw new ConfigException("--url: a URL is required");
            }
        }

        public static ServerUrl parse(String text) {
            if (text == null) {
                return null;
            }
            return new ServerUrl(text, ConfigException.parsing("--url", () -> {
                Endpoint.parse(text);
                return Endpoint.openAiBase(text);
            }));
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
