package dev.llmload.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.util.Collection;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The TLS side of a JDK {@link HttpClient} that only ever asks plain-HTTP URLs (the server probe and
 * the telemetry scrapes of a local server). The client makes the JDK's default TLS context when it
 * is built, whether it ever opens a TLS connection or not, and that reads and parses every CA
 * certificate of the system: about a tenth of a CPU-second before the first request. Such a client
 * gets a context that trusts no certificate instead; it never needs one.
 */
public final class PlainHttp {

    private PlainHttp() {}

    /** Whether every one of {@code urls} is {@code http://}, so a client for them never speaks TLS. */
    public static boolean only(Collection<URI> urls) {
        return urls.stream().allMatch(url -> "http".equals(url.getScheme() == null ? null
                : url.getScheme().toLowerCase(Locale.ROOT)));
    }

    /**
     * Gives {@code builder} the context that trusts nothing: for a client that follows no redirect
     * and asks only plain-HTTP URLs.
     */
    public static HttpClient.Builder withoutTls(HttpClient.Builder builder) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            // No trust manager: every certificate is refused, and no trust store is read.
            context.init(null, new TrustManager[0], null);
            return builder.sslContext(context);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up the JDK's TLS: " + e.getMessage(), e);
        }
    }
}
