package dev.llmload.config;

import dev.llmload.http.Endpoint;
import dev.llmload.protocol.ApiKind;
import dev.llmload.protocol.RequestExtras;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The server and how to talk to it.
 *
 * @param url       the server as written, checked; null when the embedded simulator is the target
 * @param model     the model name to send; null for the first one the server lists
 * @param ignoreEos whether {@code ignore_eos} is sent
 * @param insecure  whether the server's TLS certificate goes unchecked
 * @param keySource where the API key is read when the run starts; the key itself is never part of
 *                  a configuration, its text or its report
 * @param extras    headers, body fields and sampling parameters every request carries; report.json
 *                  records them with credentials' header values redacted
 */
public record Target(
        ServerUrl url,
        ApiKind api,
        String model,
        boolean stream,
        boolean ignoreEos,
        boolean insecure,
        KeySource keySource,
        RequestExtras extras) {

    public Target {
        if (api == null) {
            throw new ConfigException("--api: an API is required");
        }
        if (keySource == null) {
            keySource = new KeySource.Environment();
        }
        extras = extras == null ? RequestExtras.NONE : extras;
        String refusal = extras.refusal(api);
        if (refusal != null) {
            throw new ConfigException(refusal);
        }
    }

    /** Where the API key comes from. */
    public sealed interface KeySource {

        /** The key, read now; null when there is none. */
        String read();

        /** {@code LLMLOAD_API_KEY}, else {@code OPENAI_API_KEY}. */
        record Environment() implements KeySource {
            @Override
            public String read() {
                String key = System.getenv("LLMLOAD_API_KEY");
                if (key == null || key.isBlank()) {
                    key = System.getenv("OPENAI_API_KEY");
                }
                return key == null || key.isBlank() ? null : key.trim();
            }
        }

        /** The first line of a file ({@code --api-key-file}). */
        record File(Path path) implements KeySource {
            public File {
                if (path == null) {
                    throw new ConfigException("--api-key-file: a file is required");
                }
            }

            @Override
            public String read() {
                List<String> lines;
                try {
                    lines = Files.readAllLines(path, StandardCharsets.UTF_8);
                } catch (java.nio.file.NoSuchFileException e) {
                    throw new ConfigException("--api-key-file: " + path + " does not exist");
                } catch (IOException e) {
                    throw new ConfigException("--api-key-file: cannot read " + path);
                }
                String key = lines.isEmpty() ? "" : lines.getFirst().trim();
                if (key.isEmpty()) {
                    throw new ConfigException("--api-key-file: " + path + " is empty");
                }
                return key;
            }
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
            if (!text.contains("://")) {
                throw new ConfigException(
                        "--url: " + text + " has no scheme: add http:// (http://" + text + ") or https://");
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
