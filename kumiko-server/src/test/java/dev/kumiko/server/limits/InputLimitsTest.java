package dev.kumiko.server.limits;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.ServerLimits;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.WireProtocolTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The limits of ServerLimits as a client meets them, and the regression cases the fuzzers found
 * (docs/fuzzing.md): each answer is DynamoDB's error with a 4xx, and valid requests near a limit
 * still pass.
 */
class InputLimitsTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        Fixtures.createTable(server.client(), "limits");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String rawExchange(byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before reading everything.
            }
            return WireProtocolTest.readResponse(s.getInputStream());
        }
    }

    private static byte[] post(String operation, String extraHeaders, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                        + "X-Amz-Target: DynamoDB_20120810." + operation + "\r\nAuthorization: " + WireProtocolTest.AUTH
                        + "\r\n"
                        + extraHeaders + "Content-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static HttpResponse<byte[]> post(String operation, String body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.endpoint())
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDB_20120810." + operation)
                .header("Authorization", WireProtocolTest.AUTH);
        headers.forEach(b::header);
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> json(HttpResponse<byte[]> r) {
        return JsonTree.parseObject(r.body(), 0, r.body().length);
    }

    private static void assertError(HttpResponse<byte[]> r, int status, String type) {
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(json(r)).containsEntry("__type", type);
    }

    private static Map<String, Object> body(String response) {
        byte[] b = response.substring(response.indexOf("\r\n\r\n") + 4).getBytes(StandardCharsets.UTF_8);
        return JsonTree.parseObject(b, 0, b.length);
    }

    @Tag("slow")
    @Test
    void gzipBombIsRefusedByItsDecompressedSize() throws IOException {
        // 64 MiB of zeros compress to about 64 KB: small on the wire, four times the body limit inflated.
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(compressed)) {
            byte[] zeros = new byte[1024 * 1024];
            for (int i = 0; i < 64; i++) {
                z.write(zeros);
            }
        }
        assertThat(compressed.size()).isLessThan(ServerLimits.REQUEST_BYTES_MAX_DEFAULT / 100);
        String response = rawExchange(post("PutItem", "Content-Encoding: gzip\r\n", compressed.toByteArray()));
        assertThat(response).startsWith("HTTP/1.1 413");
        assertThat(body(response)).containsEntry("__type", "com.amazon.coral.service#RequestEntityTooLargeException");
        assertThat(server.client().listTables().tableNames()).contains("limits");
    }

    @Test
    void oversizedHeadersAndRequestLineAreClientErrors() throws IOException {
        String header = rawExchange(post(
                "ListTables",
                "X-Big: " + "a".repeat(ServerLimits.HEADER_BYTES_MAX) + "\r\n",
                "{}".getBytes(StandardCharsets.UTF_8)));
        assertThat(header).startsWith("HTTP/1.1 400").containsIgnoringCase("connection: close");
        assertThat(body(header)).containsEntry("__type", "com.amazon.coral.service#SerializationException");
        String line = rawExchange(("POST /" + "a".repeat(ServerLimits.INITIAL_LINE_BYTES_MAX) + " HTTP/1.1\r\n"
                        + "Host: x\r\nContent-Length: 2\r\n\r\n{}")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(line).startsWith("HTTP/1.1 400");
        assertThat(body(line)).containsEntry("__type", "com.amazon.coral.service#SerializationException");
    }

    @Test
    void jsonNestingBeyondTheParserLimitIsASerializationError() {
        String deep = "{\"TableName\": " + "[".repeat(ServerLimits.JSON_DEPTH_MAX + 1)
                + "]".repeat(ServerLimits.JSON_DEPTH_MAX + 1) + "}";
        HttpResponse<byte[]> r = post("DescribeTable", deep, Map.of());
        assertError(r, 400, "com.amazon.coral.service#SerializationException");
        assertThat(json(r)).containsEntry("Message", "Request body exceeds the supported nesting depth or size");
    }

    @Test
    void attributeNestingBelowTheParserLimitGetsDynamoDbsValidation() {
        // 40 levels of lists: 80 JSON levels, within the parser's limit, so the attribute rule answers.
        String value = "{\"L\": [".repeat(40) + "{\"S\": \"x\"}" + "]}".repeat(40);
        String put = "{\"TableName\": \"limits\", \"Item\": {\"PK\": {\"S\": \"n\"}, \"SK\": {\"S\": \"1\"}, \"deep\": "
                + value + "}}";
        HttpResponse<byte[]> r = post("PutItem", put, Map.of());
        assertError(r, 400, "com.amazon.coral.validate#ValidationException");
        assertThat(json(r))
                .containsEntry(
                        "message",
                        "Nesting Levels have exceeded supported limits: "
                                + "Attributes in the item have nested levels beyond supported limit");
    }

    @Test
    void attributeNamesUpTo64KbPassTheJsonReader() {
        // Jackson's default name limit (50,000 chars) refused these before the engine could judge them.
        String name = "n".repeat(60_000);
        server.client()
                .putItem(b -> b.tableName("limits")
                        .item(Map.of(
                                "PK",
                                AttributeValue.fromS("long-name"),
                                "SK",
                                AttributeValue.fromS("1"),
                                name,
                                AttributeValue.fromS("v"))));
        assertThat(server.client()
                        .getItem(b -> b.tableName("limits")
                                .key(Map.of("PK", AttributeValue.fromS("long-name"), "SK", AttributeValue.fromS("1"))))
                        .item())
                .containsKey(name);
    }

    // ---- regression cases found by the fuzzers ----

    @Test
    void nullSetMemberIsAValidationError() {
        HttpResponse<byte[]> r = post(
                "PutItem",
                "{\"TableName\": \"limits\", \"Item\": {\"PK\": "
                        + "{\"S\": \"a\"}, \"SK\": {\"S\": \"1\"}, \"ss\": {\"SS\": [\"x\", null]}}}",
                Map.of());
        assertError(r, 400, "com.amazon.coral.validate#ValidationException");
        assertThat(json(r))
                .containsEntry(
                        "message",
                        "One or more parameter values were invalid: An string set  may not contain null members");
    }

    @Test
    void jsonNullListsOfCreateTableAreAbsentMembers() {
        HttpResponse<byte[]> r = post(
                "CreateTable",
                "{\"TableName\": \"nulls\", \"AttributeDefinitions\": null, "
                        + "\"KeySchema\": null, \"BillingMode\": \"PAY_PER_REQUEST\"}",
                Map.of());
        assertError(r, 400, "com.amazon.coral.validate#ValidationException");
        assertThat(json(r))
                .containsEntry(
                        "message",
                        "2 validation errors detected: Value null at "
                                + "'attributeDefinitions' failed to satisfy constraint: Member must not be null; Value null at "
                                + "'keySchema' failed to satisfy constraint: Member must not be null");
    }

    @Test
    void nullListMemberIsAValidationError() {
        HttpResponse<byte[]> r = post(
                "CreateTable",
                "{\"TableName\": \"x\", \"AttributeDefinitions\": "
                        + "[{\"AttributeName\": \"id\", \"AttributeType\": \"S\"}], \"KeySchema\": [null], "
                        + "\"BillingMode\": \"PAY_PER_REQUEST\"}",
                Map.of());
        assertError(r, 400, "com.amazon.coral.validate#ValidationException");
        assertThat(json(r))
                .containsEntry(
                        "message",
                        "1 validation error detected: Value null at "
                                + "'keySchema.1.member' failed to satisfy constraint: Member must not be null");
    }

    @Test
    void legacyConditionWithoutOperatorAndEmptyFilters() {
        assertValidation(
                () -> server.client()
                        .query(b -> b.tableName("limits")
                                .keyConditions(Map.of(
                                        "PK",
                                        software.amazon.awssdk.services.dynamodb.model.Condition.builder()
                                                .attributeValueList(AttributeValue.fromS("a"))
                                                .build()))),
                "1 validation error detected: Value null at 'comparisonOperator' failed to satisfy constraint: "
                        + "Member must not be null");
        assertValidation(
                () -> server.client().query(b -> b.tableName("limits").keyConditions(Map.of())),
                "Query condition missed key schema element: PK");
        HttpResponse<byte[]> emptyFilter = post("Scan", "{\"TableName\": \"limits\", \"ScanFilter\": {}}", Map.of());
        assertThat(emptyFilter.statusCode()).isEqualTo(200);
    }
}
