package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.RawHttp;
import dev.kumiko.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compressed request bodies at the edge: empty, broken, and gzip inside gzip. DynamoDB documents
 * none of these; Kumiko's answers follow HTTP's Content-Encoding rules (docs/compatibility.md).
 */
class GzipBodiesTest {
    private static final byte[] LIST_TABLES = "{}".getBytes(StandardCharsets.UTF_8);
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RawHttp.Response post(byte[] body, String encoding) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", "127.0.0.1");
        h.put("Content-Type", "application/x-amz-json-1.0");
        h.put("X-Amz-Target", "DynamoDB_20120810.ListTables");
        h.put("Authorization", dev.kumiko.server.protocol.WireProtocolTest.AUTH);
        h.put("Content-Encoding", encoding);
        h.put("Content-Length", Integer.toString(body.length));
        return RawHttp.post(server.port(), "/", h, body);
    }

    private static byte[] gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Test
    void gzipInsideGzipListedTwiceIsUndoneLayerByLayer() {
        RawHttp.Response r = post(gzip(gzip(LIST_TABLES)), "gzip, gzip");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("TableNames");
    }

    @Test
    void gzipInsideGzipListedOnceLeavesGzipBytesThatAreNotJson() {
        RawHttp.Response r = post(gzip(gzip(LIST_TABLES)), "gzip");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body()).contains("SerializationException");
    }

    @Test
    void aTruncatedOrBrokenGzipBodyIsASerializationError() {
        byte[] whole = gzip(LIST_TABLES);
        for (byte[] broken : new byte[][] {
            Arrays.copyOf(whole, whole.length / 2), "not gzip at all".getBytes(StandardCharsets.US_ASCII)
        }) {
            RawHttp.Response r = post(broken, "gzip");
            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.body()).contains("SerializationException");
        }
    }

    @Test
    void anEmptyGzipBodyIsAnsweredAsAnEmptyBody() {
        RawHttp.Response gz = post(new byte[0], "gzip");
        RawHttp.Response plain = post(new byte[0], "identity");
        assertThat(gz.status()).as(gz.body()).isEqualTo(plain.status());
        assertThat(gz.body().replaceAll("\"message\":\"[^\"]*\"", ""))
                .isEqualTo(plain.body().replaceAll("\"message\":\"[^\"]*\"", ""));
        RawHttp.Response gzOfNothing = post(gzip(new byte[0]), "gzip");
        assertThat(gzOfNothing.status()).isEqualTo(plain.status());
    }
}
