package dev.llmload.run;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** The JDK-client side of {@code --insecure}: a TLS context that accepts any certificate. */
final class TrustEverything implements X509TrustManager {

    private TrustEverything() {}

    static SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustEverything()}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // --insecure: the user chose to trust this server without checking it.
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // --insecure: the user chose to trust this server without checking it.
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
