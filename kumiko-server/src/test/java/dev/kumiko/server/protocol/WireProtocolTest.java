package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The HTTP and JSON 1.0 layer as raw requests see it, for what the SDK cannot produce: missing or
 * foreign headers, broken bodies, compression, CORS, keep-alive, pipelining and size limits. No
 * request may ever get a 500, and the server must keep serving after every bad one.
 */
public class WireProtocolTest {
    public static final String AUTH =
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/dynamodb/aws4_request, "
                    + "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0123456789abcdef";
    public static final String TARGET = "DynamoDB_20120810.";
    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        Fixtures.createTable(server.client(), "wire");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** After every test: the server still answers a well-formed request. */
    @AfterEach
    void serverStillServes() {
        HttpResponse<byte[]> r = post("ListTables", "{}", Map.of());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r)).containsKey("TableNames");
    }

    static HttpRequest.Builder request() {
        return HttpRequest.newBuilder(server.endpoint()).timeout(Duration.ofSeconds(20));
    }

    static HttpResponse<byte[]> send(HttpRequest req) {
        try {
            HttpResponse<byte[]> r = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).as("never a 500").isLessThan(500);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static HttpResponse<byte[]> post(String operation, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder b = request()
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/x-amz-json-1.0");
        if (operation != null) {
            b.header("X-Amz-Target", TARGET + operation);
        }
        if (!headers.containsKey("Authorization")) {
            b.header("Authorization", AUTH);
        }
        headers.forEach((k, v) -> {
            if (v != null) {
                b.header(k, v);
            }
        });
        return send(b.build());
    }

    static HttpResponse<byte[]> post(String operation, String body, Map<String, String> headers) {
        return post(operation, body.getBytes(StandardCharsets.UTF_8), headers);
    }

    static Map<String, Object> json(HttpResponse<byte[]> r) {
        byte[] b = r.body();
        return JsonTree.parseObject(b, 0, b.length);
    }

    static void assertError(HttpResponse<byte[]> r, int status, String type) {
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
        assertThat(json(r)).containsEntry("__type", type);
    }

    public static long crc32(byte[] b) {
        CRC32 crc = new CRC32();
        crc.update(b);
        return crc.getValue();
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    static byte[] deflate(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    // ---- routing and authentication ----

    @Test
    void missingTargetIsUnknownOperation() {
        HttpResponse<byte[]> r = post(null, "{}", Map.of());
        assertError(r, 400, "com.amazon.coral.service#UnknownOperationException");
    }

    @Test
    void unknownTargetIsUnknownOperation() {
        assertError(post("NoSuchOperation", "{}", Map.of()), 400, "com.amazon.coral.service#UnknownOperationException");
        HttpResponse<byte[]> foreign = send(request()
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("X-Amz-Target", "AmazonSQS.ListQueues")
                .header("Authorization", AUTH)
                .build());
        assertError(foreign, 400, "com.amazon.coral.service#UnknownOperationException");
    }

    @Test
    void missingAuthorization() {
        HttpResponse<byte[]> r = send(request()
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("X-Amz-Target", TARGET + "ListTables")
                .build());
        assertError(r, 400, "com.amazon.coral.service#MissingAuthenticationTokenException");
        assertThat(json(r)).containsEntry("message", "Request is missing Authentication Token");
    }

    // ---- body decoding ----

    @Test
    void malformedJson() {
        assertError(
                post("ListTables", "{\"Limit\": ", Map.of()), 400, "com.amazon.coral.service#SerializationException");
        assertError(post("ListTables", "{]", Map.of()), 400, "com.amazon.coral.service#SerializationException");
        assertError(
                post("ListTables", "{} trailing", Map.of()), 400, "com.amazon.coral.service#SerializationException");
    }

    @Test
    void bodyThatIsNotAnObject() {
        HttpResponse<byte[]> array = post("ListTables", "[]", Map.of());
        assertError(array, 400, "com.amazon.coral.service#SerializationException");
        assertThat(json(array)).containsEntry("Message", "Start of list found where not expected");
        assertError(post("ListTables", "\"x\"", Map.of()), 400, "com.amazon.coral.service#SerializationException");
        assertError(post("ListTables", "1", Map.of()), 400, "com.amazon.coral.service#SerializationException");
    }

    @Test
    void memberOfTheWrongJsonType() {
        HttpResponse<byte[]> number = post("DescribeTable", "{\"TableName\": 123}", Map.of());
        assertError(number, 400, "com.amazon.coral.service#SerializationException");
        assertThat(json(number)).containsEntry("Message", "NUMBER_VALUE cannot be converted to String");
        HttpResponse<byte[]> object = post("DescribeTable", "{\"TableName\": {}}", Map.of());
        assertError(object, 400, "com.amazon.coral.service#SerializationException");
        assertThat(json(object)).containsEntry("Message", "Start of structure or map found where not expected");
        HttpResponse<byte[]> itemAsString = post("PutItem", "{\"TableName\": \"wire\", \"Item\": \"x\"}", Map.of());
        assertError(itemAsString, 400, "com.amazon.coral.service#SerializationException");
        assertThat(json(itemAsString)).containsEntry("Message", "Unexpected field type");
    }

    // ---- response headers ----

    @Test
    void responseHeaders() {
        HttpResponse<byte[]> ok = post("DescribeTable", "{\"TableName\": \"wire\"}", Map.of());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("x-amzn-RequestId"))
                .hasValueSatisfying(id -> assertThat(id).isNotBlank());
        assertThat(ok.headers().firstValue("x-amz-crc32")).hasValue(Long.toString(crc32(ok.body())));
        assertThat(ok.headers().firstValue("Server")).isPresent();
        assertThat(ok.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
        assertThat(ok.headers().firstValueAsLong("Content-Length")).hasValue(ok.body().length);

        HttpResponse<byte[]> error = post("DescribeTable", "{\"TableName\": \"missing\"}", Map.of());
        assertThat(error.statusCode()).isEqualTo(400);
        assertThat(error.headers().firstValue("x-amzn-RequestId")).isPresent();
        assertThat(error.headers().firstValue("x-amz-crc32")).hasValue(Long.toString(crc32(error.body())));
        assertThat(json(error))
                .containsEntry("__type", "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")
                .containsEntry("message", "Requested resource not found: Table: missing not found");

        HttpResponse<byte[]> other = post("DescribeTable", "{\"TableName\": \"wire\"}", Map.of());
        assertThat(other.headers().firstValue("x-amzn-RequestId"))
                .isNotEqualTo(ok.headers().firstValue("x-amzn-RequestId"));
    }

    @Test
    void healthCheck() {
        HttpResponse<byte[]> r = send(request().GET().build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.US_ASCII).strip())
                .isEqualTo("healthy: " + server.endpoint().getHost() + ":"
                        + server.endpoint().getPort());
    }

    @Test
    void regionComesFromTheCredentialScope() {
        try (DynamoDbClient eu = server.newClient("eu-west-1")) {
            String arn = eu.createTable(b -> b.tableName("in-ireland")
                            .attributeDefinitions(a -> a.attributeName("k").attributeType("S"))
                            .keySchema(k -> k.attributeName("k").keyType("HASH"))
                            .billingMode("PAY_PER_REQUEST"))
                    .tableDescription()
                    .tableArn();
            assertThat(arn).isEqualTo("arn:aws:dynamodb:eu-west-1:000000000000:table/in-ireland");
            assertThat(eu.describeTable(b -> b.tableName("in-ireland")).table().tableArn())
                    .isEqualTo(arn);
        }
    }

    // ---- compression ----

    @Test
    void compressedRequestBodies() throws IOException {
        byte[] body = "{\"TableName\": \"wire\"}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> gz = post("DescribeTable", gzip(body), Map.of("Content-Encoding", "gzip"));
        assertThat(gz.statusCode()).isEqualTo(200);
        assertThat(json(gz)).containsKey("Table");
        HttpResponse<byte[]> df = post("DescribeTable", deflate(body), Map.of("Content-Encoding", "deflate"));
        assertThat(df.statusCode()).isEqualTo(200);
        assertThat(json(df)).containsKey("Table");
    }

    @Test
    void brokenGzipBodyIsAClientError() {
        byte[] notGzip = "this is not gzip at all, just text pretending".getBytes(StandardCharsets.US_ASCII);
        HttpResponse<byte[]> r = post("DescribeTable", notGzip, Map.of("Content-Encoding", "gzip"));
        assertThat(r.statusCode()).isBetween(400, 499);
        // The server drops a connection whose byte stream it can no longer trust, and must say so, or
        // a pooling client reuses the dead socket (serverStillServes checks that next).
        assertThat(r.headers().firstValue("Connection")).hasValue("close");
    }

    @Test
    void largeResponsesAreGzippedWhenAccepted() throws IOException {
        server.client()
                .putItem(b -> b.tableName("wire")
                        .item(Map.of(
                                "PK",
                                AttributeValue.fromS("big"),
                                "SK",
                                AttributeValue.fromS("1"),
                                "text",
                                AttributeValue.fromS("lorem ipsum ".repeat(2000)))));
        String get = "{\"TableName\": \"wire\", \"Key\": {\"PK\": {\"S\": \"big\"}, \"SK\": {\"S\": \"1\"}}}";
        HttpResponse<byte[]> r = post("GetItem", get, Map.of("Accept-Encoding", "gzip"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
        // DynamoDB's x-amz-crc32 covers the bytes on the wire, i.e. the compressed body.
        assertThat(r.headers().firstValue("x-amz-crc32")).hasValue(Long.toString(crc32(r.body())));
        byte[] plain;
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(r.body()))) {
            plain = in.readAllBytes();
        }
        assertThat(plain.length).isGreaterThan(r.body().length);
        assertThat(JsonTree.parseObject(plain, 0, plain.length)).containsKey("Item");

        HttpResponse<byte[]> identity = post("GetItem", get, Map.of());
        assertThat(identity.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(identity.body()).isEqualTo(plain);
        // And the SDK (which sends Accept-Encoding by default only for some clients) reads both.
        assertThat(server.client()
                        .getItem(b -> b.tableName("wire")
                                .key(Map.of("PK", AttributeValue.fromS("big"), "SK", AttributeValue.fromS("1"))))
                        .item()
                        .get("text")
                        .s())
                .hasSize(24000);
    }

    // ---- CORS ----

    @Test
    void corsPreflight() {
        HttpResponse<byte[]> r = send(request()
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://localhost:3000")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,x-amz-target,authorization")
                .build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(r.headers().firstValue("Access-Control-Allow-Methods"))
                .hasValueSatisfying(m -> assertThat(m).contains("POST"));
        assertThat(r.headers().firstValue("Access-Control-Allow-Headers"))
                .hasValueSatisfying(h -> assertThat(h.toLowerCase()).contains("x-amz-target"));
        assertThat(r.headers().firstValue("Access-Control-Max-Age")).isPresent();

        HttpResponse<byte[]> actual = post("ListTables", "{}", Map.of("Origin", "http://localhost:3000"));
        assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(actual.headers().firstValue("Access-Control-Expose-Headers"))
                .hasValueSatisfying(
                        h -> assertThat(h).contains("x-amzn-RequestId").contains("x-amz-crc32"));
    }

    // ---- connection handling ----

    static String rawRequest(String operation, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + "X-Amz-Target: " + TARGET + operation + "\r\nAuthorization: " + AUTH + "\r\n"
                + "Content-Length: " + b.length + "\r\n\r\n" + body;
    }

    /** Reads one HTTP/1.1 response with a Content-Length body; returns status line + headers + body. */
    public static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-response: " + head);
            }
            head.write(c);
            matched = (c == '\r' || c == '\n') && "\r\n\r\n".charAt(matched) == c ? matched + 1 : (c == '\r' ? 1 : 0);
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return headers + new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void keepAliveAndPipelining() throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            // Two requests written back to back before reading anything.
            out.write((rawRequest("DescribeTable", "{\"TableName\":\"wire\"}")
                            + rawRequest("DescribeTable", "{\"TableName\":\"missing\"}"))
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            String first = readResponse(in);
            String second = readResponse(in);
            assertThat(first).startsWith("HTTP/1.1 200").contains("\"TableName\":\"wire\"");
            assertThat(second).startsWith("HTTP/1.1 400").contains("ResourceNotFoundException");
            // The connection is still open for a third request.
            out.write(rawRequest("ListTables", "{}").getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200").contains("TableNames");
        }
    }

    @Test
    void oversizedBodyIs413() throws IOException {
        long length = 17L * 1024 * 1024;
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                            + "X-Amz-Target: " + TARGET + "PutItem\r\nAuthorization: " + AUTH + "\r\n"
                            + "Content-Length: " + length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // The limit is judged from Content-Length: the answer comes before the body is sent.
            String response = readResponse(s.getInputStream());
            assertThat(response).startsWith("HTTP/1.1 413");
        }
        // Streamed without a Content-Length (chunked), the limit still holds.
        byte[] chunk = new byte[1024 * 1024];
        java.util.Arrays.fill(chunk, (byte) ' ');
        HttpRequest chunked = request()
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new InputStream() {
                    long left = length;

                    @Override
                    public int read() {
                        return left-- > 0 ? ' ' : -1;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) {
                        if (left <= 0) {
                            return -1;
                        }
                        int n = (int) Math.min(len, left);
                        java.util.Arrays.fill(b, off, off + n, (byte) ' ');
                        left -= n;
                        return n;
                    }
                }))
                .header("X-Amz-Target", TARGET + "PutItem")
                .header("Authorization", AUTH)
                .build();
        try {
            HttpResponse<byte[]> r = send(chunked);
            assertThat(r.statusCode()).isEqualTo(413);
        } catch (UncheckedIOException e) {
            // Acceptable: the server may close the connection while the client is still uploading.
        }
    }
}
