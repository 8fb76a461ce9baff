package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.server.http.TlsContexts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code --tls-cert/--tls-key}: HTTPS with the committed test certificate (CN=localhost, IP 127.0.0.1). */
class TlsTest {
    static Path resource(String name) {
        try {
            return Path.of(TlsTest.class.getResource("/tls/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Trust managers that trust exactly the test certificate. */
    static TrustManager[] trustTestCertificate() {
        try (InputStream in = Files.newInputStream(resource("cert.pem"))) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry(
                    "kumiko-test", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(store);
            return f.getTrustManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static DynamoDbClient httpsClient(TestServer server, String host, String id, String secret) {
        return DynamoDbClient.builder()
                .endpointOverride(java.net.URI.create("https://" + host + ":" + server.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(id, secret)))
                .httpClient(UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofSeconds(30))
                        .tlsTrustManagersProvider(TlsTest::trustTestCertificate)
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryPolicy(RetryPolicy.none())
                        .build())
                .build();
    }

    @Test
    void theSdkTalksHttpsWithATrustedCertificateAndSigV4() {
        TestServer.Security security = TestServer.Security.sigV4(SigV4AuthTest.KEYS)
                .withTls(TlsContexts.server(resource("cert.pem"), resource("key.pem")));
        try (TestServer server =
                        TestServer.start(TestServer.StoreKind.MEMORY, EngineSettings.DEFAULTS, Clock.SYSTEM, security);
                DynamoDbClient byIp = httpsClient(server, "127.0.0.1", "AKIAALICE", "alice-secret");
                DynamoDbClient byName = httpsClient(server, "localhost", "AKIAALICE", "alice-secret")) {
            Txn.createHashTable(byIp, "over-tls");
            byIp.putItem(b -> b.tableName("over-tls").item(Map.of("pk", Txn.s("k"))));
            assertThat(byName.getItem(b -> b.tableName("over-tls").key(Map.of("pk", Txn.s("k"))))
                            .hasItem())
                    .isTrue();
        }
    }

    @Test
    void plainHttpToTheTlsPortFailsCleanlyAndTheServerStaysUp() throws IOException {
        try (TestServer server = TestServer.start(
                        TestServer.StoreKind.MEMORY,
                        EngineSettings.DEFAULTS,
                        Clock.SYSTEM,
                        TestServer.Security.NONE.withTls(
                                TlsContexts.server(resource("cert.pem"), resource("key.pem"))));
                DynamoDbClient https = httpsClient(server, "127.0.0.1", "dummy", "dummy")) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(20_000);
                OutputStream out = s.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                byte[] answer = s.getInputStream().readAllBytes();
                assertThat(new String(answer, StandardCharsets.ISO_8859_1))
                        .as("no plain-text answer")
                        .doesNotContain("HTTP/1.1");
            } catch (java.net.SocketException reset) {
                // A reset is a clean refusal too.
            }
            assertThat(https.listTables().tableNames()).isEmpty();
        }
    }
}
