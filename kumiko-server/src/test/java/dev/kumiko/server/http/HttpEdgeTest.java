package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** DynamoDB's HTTP edge and its SerializationException bodies, as raw HTTP sees them. */
class HttpEdgeTest {
    private static final String TARGET = "DynamoDB_20120810.";
    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();
        Fixtures.createTable(server.client(), "edge");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(server.endpoint().resolve(path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", dev.kumiko.server.protocol.WireProtocolTest.AUTH);
    }

    private static HttpResponse<byte[]> send(HttpRequest req) {
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

    private static HttpResponse<byte[]> post(String operation, String body, String contentType) {
        return send(request("/")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", contentType)
                .header("X-Amz-Target", TARGET + operation)
                .build());
    }

    private static Map<String, Object> json(HttpResponse<byte[]> r) {
        return JsonTree.parseObject(r.body(), 0, r.body().length);
    }

    @Test
    void nonPostOrWrongContentTypeIsNotFound() {
        assertThat(send(request("/")
                                .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                                .build())
                        .statusCode())
                .isEqualTo(404);
        assertThat(send(request("/").DELETE().build()).statusCode()).isEqualTo(404);
        assertThat(post("ListTables", "{}", "text/plain").statusCode()).isEqualTo(404);
    }

    @Test
    void jsonIsAnsweredAsJson() {
        HttpResponse<byte[]> r = post("ListTables", "{}", "application/json");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        HttpResponse<byte[]> amz = post("ListTables", "{}", "application/x-amz-json-1.0");
        assertThat(amz.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
    }

    @Test
    void everyResponseHasADate() {
        assertThat(post("ListTables", "{}", "application/x-amz-json-1.0")
                        .headers()
                        .firstValue("Date"))
                .isPresent();
        assertThat(post("DescribeTable", "{\"TableName\": \"nope_nope\"}", "application/x-amz-json-1.0")
                        .headers()
                        .firstValue("Date"))
                .isPresent();
        assertThat(send(request("/").GET().build()).headers().firstValue("Date"))
                .isPresent();
    }

    @Test
    void healthCheckEchoesTheHostOnlyAtTheRoot() {
        HttpResponse<byte[]> r = send(request("/").GET().build());
        String host = server.endpoint().getHost() + ":" + server.endpoint().getPort();
        assertThat(new String(r.body(), StandardCharsets.US_ASCII)).isEqualTo("healthy: " + host + " ");
        assertThat(r.headers().firstValue("x-amz-crc32"))
                .hasValue(Long.toString(dev.kumiko.server.protocol.WireProtocolTest.crc32(r.body())));
        assertThat(send(request("/elsewhere").GET().build()).statusCode()).isEqualTo(404);
    }

    @Test
    void headIsAnsweredWithoutABodyAndTheConnectionStaysUsable() throws IOException {
        try (java.net.Socket socket = new java.net.Socket(
                server.endpoint().getHost(), server.endpoint().getPort())) {
            socket.setSoTimeout(20_000);
            String list = "{}";
            String requests = "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: " + TARGET + "ListTables\r\n"
                    + "Authorization: " + dev.kumiko.server.protocol.WireProtocolTest.AUTH + "\r\n"
                    + "Content-Type: application/x-amz-json-1.0\r\nContent-Length: " + list.length()
                    + "\r\nConnection: close\r\n\r\n" + list;
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.US_ASCII));
            String both = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int second = both.indexOf("HTTP/1.1 ", 1);
            assertThat(both).startsWith("HTTP/1.1 404 ");
            assertThat(second).as("a second response").isPositive();
            String head = both.substring(0, second);
            assertThat(head).contains("content-length: ").endsWith("\r\n\r\n");
            String post = both.substring(second);
            assertThat(post)
                    .startsWith("HTTP/1.1 200 OK\r\n")
                    .contains("\r\nconnection: close\r\n")
                    .endsWith("\r\n\r\n{\"TableNames\":[\"edge\"]}");
        }
    }

    @Test
    void corsOnlyWithAnOriginAndEchoingTheRequestedMethod() {
        HttpResponse<byte[]> plain = send(request("/")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Access-Control-Request-Method", "POST")
                .build());
        assertThat(plain.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        HttpResponse<byte[]> cors = send(request("/")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://example.com")
                .header("Access-Control-Request-Method", "PUT")
                .build());
        assertThat(cors.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
        assertThat(cors.headers().firstValue("Access-Control-Allow-Methods")).hasValue("PUT");
    }

    @Test
    void unpaddedBase64IsRefused() {
        HttpResponse<byte[]> r = post(
                "PutItem",
                "{\"TableName\": \"edge\", \"Item\": {\"PK\": {\"S\": \"a\"}, "
                        + "\"SK\": {\"S\": \"b\"}, \"bin\": {\"B\": \"AAE\"}}}",
                "application/x-amz-json-1.0");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r))
                .containsEntry("__type", "com.amazon.coral.service#SerializationException")
                .containsEntry("Message", "Base64 encoded length is expected a multiple of 4 bytes but found: 3");
    }

    @Test
    void tagResourceAnswersAnEmptyBody() {
        String arn =
                server.client().describeTable(b -> b.tableName("edge")).table().tableArn();
        HttpResponse<byte[]> tag = post(
                "TagResource",
                "{\"ResourceArn\": \"" + arn + "\", \"Tags\": [{\"Key\": \"k\", " + "\"Value\": \"v\"}]}",
                "application/x-amz-json-1.0");
        assertThat(tag.statusCode()).isEqualTo(200);
        assertThat(tag.body()).isEmpty();
        HttpResponse<byte[]> untag = post(
                "UntagResource",
                "{\"ResourceArn\": \"" + arn + "\", \"TagKeys\": [\"k\"]}",
                "application/x-amz-json-1.0");
        assertThat(untag.statusCode()).isEqualTo(200);
        assertThat(untag.body()).isEmpty();
    }

    @Test
    void serializationErrorsUseCapitalMessage() {
        HttpResponse<byte[]> number = post("DescribeTable", "{\"TableName\": 123}", "application/x-amz-json-1.0");
        assertThat(json(number))
                .containsEntry("Message", "NUMBER_VALUE cannot be converted to String")
                .doesNotContainKey("message");
        HttpResponse<byte[]> listForMap =
                post("PutItem", "{\"TableName\": \"edge\", \"Item\": [{}]}", "application/x-amz-json-1.0");
        assertThat(json(listForMap))
                .containsEntry("__type", "com.amazon.coral.service#SerializationException")
                .containsEntry(
                        "Message",
                        "Unrecognized collection type java.util.Map<java.lang.String, "
                                + "com.amazonaws.dynamodb.v20120810.AttributeValue>");
    }

    @Test
    void aNullAttributeGivenAStringGetsTheValidationException() {
        HttpResponse<byte[]> r = post(
                "PutItem",
                "{\"TableName\": \"edge\", \"Item\": {\"PK\": {\"S\": \"a\"}, "
                        + "\"SK\": {\"S\": \"b\"}, \"n\": {\"NULL\": \"no\"}}}",
                "application/x-amz-json-1.0");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r))
                .containsEntry("__type", "com.amazon.coral.validate#ValidationException")
                .containsEntry(
                        "message",
                        "One or more parameter values were invalid: Null attribute value types must "
                                + "have the value of true");
    }

    @Test
    void authorizationPartsSeparatedBySpacesOnlyGiveTheRegion() {
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(server.endpoint())
                .timeout(Duration.ofSeconds(20))
                .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request "
                                + "SignedHeaders=host Signature=abc")
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", TARGET + "DescribeTable")
                .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\": \"edge\"}"))
                .build());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat((String) ((Map<?, ?>) json(r).get("Table")).get("TableArn"))
                .startsWith("arn:aws:dynamodb:eu-west-1:");
    }
}
