package dev.llmload.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.Locale;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS side of a JDK {@link HttpClient} that only ever asks plain-HTTP URLs (the server probe of
 * a local server). The client makes the JDK's default TLS context when it
 * is built, whether it ever opens a TLS connection or not, and that reads and parses every CA
 * certificate of the system: about a tenth of a CPU-second before the first request. Even an empty
 * context from {@link SSLContext#getInstance} costs a fiftieth, for the JDK's security providers.
 * Such a client gets a context that can make no TLS connection at all instead; it never needs one.
 */
public final class PlainHttp {

    private PlainHttp() {}

    /** Whether every one of {@code urls} is {@code http://}, so a client for them never speaks TLS. */
    public static boolean only(Collection<URI> urls) {
        return urls.stream().allMatch(url -> "http".equals(url.getScheme() == null ? null
                : url.getScheme().toLowerCase(Locale.ROOT)));
    }

    /**
     * Gives {@code builder} the context that makes no TLS connection, and parameters of its own so
     * that the client does not ask that context for its defaults: for a client that follows no
     * redirect and asks only plain-HTTP URLs.
     */
    public static HttpClient.Builder withoutTls(HttpClient.Builder builder) {
        return builder.sslContext(new NoTls()).sslParameters(new SSLParameters());
    }

    /** A TLS context that refuses every use; made without the JDK's security providers. */
    private static final class NoTls extends SSLContext {
        NoTls() {
            super(new Refusing(), null, "none");
        }
    }

    private static final class Refusing extends SSLContextSpi {

        private static UnsupportedOperationException refused() {
            return new UnsupportedOperationException("this client speaks plain HTTP only");
        }

        @Override
        protected void engineInit(KeyManager[] keys, TrustManager[] trust, SecureRandom random) {
            throw refused();
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            throw refused();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            throw refused();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            throw refused();
        }
    }
}
