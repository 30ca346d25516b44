package dev.llmload.http;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where requests go: scheme, host and port of a server plus the path prefix under which its API
 * lives (for {@code http://host:8000/v1} the prefix is {@code /v1}).
 */
public record Endpoint(boolean tls, String host, int port, String basePath) {

    /** Parses {@code http(s)://host[:port][/prefix]}; throws IllegalArgumentException with a one-line reason. */
    public static Endpoint parse(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid URL: " + url);
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
            throw new IllegalArgumentException("URL must start with http:// or https://: " + url);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("URL has no host: " + url);
        }
        boolean tls = scheme.equalsIgnoreCase("https");
        int port = uri.getPort() > 0 ? uri.getPort() : (tls ? 443 : 80);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Endpoint(tls, host, port, path);
    }

    /**
     * The API base of an OpenAI-compatible server: {@code http://host:8000} and
     * {@code http://host:8000/v1} both mean {@code /v1} on that server; a gateway's
     * {@code https://gw/openai/v1} keeps its own prefix.
     */
    public static Endpoint openAiBase(String url) {
        Endpoint parsed = parse(url);
        if (parsed.basePath().endsWith("/v1")) {
            return parsed;
        }
        return new Endpoint(parsed.tls(), parsed.host(), parsed.port(), parsed.basePath() + "/v1");
    }

    /**
     * The root of an engine's native API: the server's own paths ({@code /generate_stream},
     * {@code /api/generate}) hang off it. {@code http://host:8080/v1} means the server's root too;
     * another prefix (a gateway's) is kept.
     */
    public static Endpoint nativeBase(String url) {
        Endpoint parsed = parse(url);
        if (!parsed.basePath().endsWith("/v1")) {
            return parsed;
        }
        String base = parsed.basePath().substring(0, parsed.basePath().length() - "/v1".length());
        return new Endpoint(parsed.tls(), parsed.host(), parsed.port(), base);
    }

    /** The same server without a base path: for requests that name their path from its root. */
    public Endpoint root() {
        return basePath.isEmpty() ? this : new Endpoint(tls, host, port, "");
    }

    /** The value of the {@code Host} header. */
    public String hostHeader() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        boolean defaultPort = tls ? port == 443 : port == 80;
        return defaultPort ? h : h + ":" + port;
    }

    /** The URL of {@code path} on this server, ignoring the base path (e.g. for {@code /metrics}). */
    public String rootUrl(String path) {
        return (tls ? "https://" : "http://") + hostHeader() + path;
    }

    /** The URL of {@code path} under the base path. */
    public String url(String path) {
        return rootUrl(basePath + path);
    }

    @Override
    public String toString() {
        return url("");
    }
}
