package dev.llmload.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmload.config.RunConfig;
import dev.llmload.record.RequestRecord;
import dev.llmload.run.BenchmarkRun;
import dev.llmload.run.RunException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https targets: certificates are checked by default, and --insecure accepts a self-signed one. */
@Tag("loopback")
@Tag("process")
class TlsTest {

    private static final String PASSWORD = "llmload-test";

    @TempDir
    static Path keys;

    private static SSLContext serverTls;

    @TempDir
    Path dir;

    /** A self-signed certificate for 127.0.0.1, made with the JDK's keytool. */
    @BeforeAll
    static void makeCertificate() throws Exception {
        Path java = Path.of(ProcessHandle.current().info().command().orElseThrow());
        Path keytool = java.resolveSibling("keytool");
        Path store = keys.resolve("server.p12");
        Process process = new ProcessBuilder(
                        keytool.toString(),
                        "-genkeypair",
                        "-alias",
                        "server",
                        "-keyalg",
                        "RSA",
                        "-keysize",
                        "2048",
                        "-validity",
                        "2",
                        "-dname",
                        "CN=127.0.0.1",
                        "-ext",
                        "SAN=ip:127.0.0.1",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass",
                        PASSWORD,
                        "-keypass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as(new String(process.getInputStream().readAllBytes()))
                .isZero();
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, PASSWORD.toCharArray());
        serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keyManagers.getKeyManagers(), null, null);
    }

    private static List<ScriptedSseServer.Step> answer() {
        return List.of(
                new ScriptedSseServer.Step("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", 5),
                new ScriptedSseServer.Step(
                        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1}}\n\n", 0),
                new ScriptedSseServer.Step("data: [DONE]\n\n", 0));
    }

    private RunConfig config(String url, boolean insecure) {
        return RunConfig.builder()
                .url(url)
                .concurrency(1)
                .numRequests(2L)
                .inputTokens("8")
                .outputTokens("1")
                .tokenizer("cl100k_base")
                .seed(1)
                .serverMetrics("off")
                .grace(Duration.ofSeconds(5))
                .outputDir(dir)
                .insecure(insecure)
                .ioThreads(1)
                .build();
    }

    @Test
    void anUntrustedCertificateStopsTheRunWithOneLine() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(answer(), serverTls)) {
            RunConfig config = config(server.url(), false);
            assertThatThrownBy(() ->
                            new BenchmarkRun(config, config.target().url().text(), null, "t", "t", r -> {}).execute())
                    .isInstanceOf(RunException.class)
                    .hasMessageContaining("TLS")
                    .hasMessageContaining("--insecure")
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void insecureAcceptsASelfSignedCertificateAndMeasuresOverTls() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(answer(), serverTls)) {
            RunConfig config = config(server.url(), true);
            List<RequestRecord> records = new BenchmarkRun(
                            config, config.target().url().text(), null, "t", "t", r -> {})
                    .execute()
                    .records();
            assertThat(records).hasSize(2).allMatch(RequestRecord::succeeded);
            assertThat(records)
                    .allMatch(r -> r.timings().firstTokenNanos() > r.timings().sentNanos() && r.outputTokens() == 1);
        }
    }
}
