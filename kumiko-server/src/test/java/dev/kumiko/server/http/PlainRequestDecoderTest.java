package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests decoded by {@link PlainRequestDecoder} are answered exactly as Netty's decoding answers
 * them, and requests it hands over still are. Each request is sent twice over raw sockets: on a
 * fresh connection, where the plain decoder sees it first, and on a connection that a health check
 * has already handed to Netty's decoding. The two answers must be the same bytes, but for the
 * request id and the date.
 */
class PlainRequestDecoderTest {
    private static final String TARGET = "X-Amz-Target: DynamoDB_20120810.";
    private static final String AUTH = "Authorization: " + dev.kumiko.server.protocol.WireProtocolTest.AUTH;
    private static final int TIMEOUT_MILLIS = 20_000;
    private static final String HEALTH_CHECK = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        Fixtures.createTable(server.client(), "plain");
        server.client()
                .putItem(b -> b.tableName("plain")
                        .item(java.util.Map.of("PK", s("a"), "SK", s("1"), "note", s("x".repeat(3000)))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
        return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
    }

    /** A DynamoDB call with these extra header lines (each ending in CRLF) and a Content-Length. */
    private static byte[] call(String operation, String body, String extraHeaders) {
        byte[] json = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + TARGET + operation + "\r\n" + AUTH + "\r\n" + extraHeaders
                + "Content-Length: " + json.length + "\r\n\r\n";
        return concat(head.getBytes(StandardCharsets.ISO_8859_1), json);
    }

    private static byte[] getItem() {
        return call("GetItem", "{\"TableName\":\"plain\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}", "");
    }

    @Test
    void plainRequestsAreAnsweredAsNettyAnswersThem() {
        List<byte[]> requests = List.of(
                getItem(),
                call("GetItem", "{\"TableName\":\"nope\",\"Key\":{\"PK\":{\"S\":\"a\"}}}", ""),
                call("PutItem", "{\"TableName\":\"plain\",\"Item\":{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"2\"}}}", ""),
                call("GetItem", "{not json", ""),
                call("ListTables", "", ""),
                call("NoSuchOperation", "{}", ""),
                // Header names in any case, blanks around values, a tab, an empty value.
                call(
                        "GetItem",
                        "{\"TableName\":\"plain\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}",
                        "x-EXTRA:   spaced value \t \r\nX-Empty:\r\nACCEPT-ENCODING: identity\r\n"),
                // Blanks around the values the answer depends on: the target, the origin (CORS).
                concat(
                        ("POST / HTTP/1.1\r\nhost:127.0.0.1\r\ncontent-type:\t application/x-amz-json-1.0 \r\n"
                                        + "x-amz-target:  DynamoDB_20120810.ListTables \t\r\nOrigin:  http://example.test  \r\n"
                                        + AUTH + "\r\ncontent-length: 2\r\n\r\n{}")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        new byte[0]));
        for (byte[] request : requests) {
            assertSameAnswers(List.of(request));
        }
    }

    @Test
    void requestsSplitAnywhereOrPipelinedAreAnsweredInOrder() {
        Random random = new Random(20261127);
        List<byte[]> three = List.of(getItem(), call("ListTables", "{}", ""), getItem());
        byte[] all = concat(concat(three.get(0), three.get(1)), three.get(2));
        List<String> expected = answers(HEALTH_CHECK.getBytes(StandardCharsets.US_ASCII), three);
        for (int round = 0; round < 20; round++) {
            List<String> got = exchange(pieces(all, random), three.size());
            assertThat(got).as("round %d", round).isEqualTo(expected);
        }
    }

    @Test
    void otherFormsHandTheConnectionToNettyAndAreStillAnswered() throws IOException {
        String get = "{\"TableName\":\"plain\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}";
        byte[] json = get.getBytes(StandardCharsets.UTF_8);
        String common = "Host: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n" + TARGET + "GetItem\r\n"
                + AUTH + "\r\n";
        List<byte[]> others = List.of(
                concat(
                        ("POST / HTTP/1.1\r\n" + common + "Transfer-Encoding: chunked\r\n\r\n"
                                        + Integer.toHexString(json.length) + "\r\n" + get + "\r\n0\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        new byte[0]),
                concat(
                        ("POST / HTTP/1.1\r\n" + common + "Content-Encoding: gzip\r\nContent-Length: "
                                        + gzip(json).length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        gzip(json)),
                concat(
                        ("POST / HTTP/1.0\r\n" + common + "Content-Length: " + json.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        json),
                concat(
                        ("POST / HTTP/1.1\r\n" + common + "Content-Length: " + json.length + "\r\nContent-Length: "
                                        + json.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        json),
                concat(
                        ("POST / HTTP/1.1\r\n" + common + "X-Folded: a\r\n b\r\nContent-Length: " + json.length
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        json),
                concat(
                        ("POST / HTTP/1.1\r\n" + common + "X-Latin: caf\u00e9\r\nContent-Length: " + json.length
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        json),
                concat(
                        ("POST / HTTP/1.1\n" + common + "Content-Length: " + json.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        json));
        for (byte[] other : others) {
            // Alone, and followed on the same connection by a plain request, which Netty then decodes.
            assertSameAnswers(List.of(other, getItem()));
        }
    }

    @Test
    void theFirstAnswersOfAHandedOverConnectionAreTheOnesBeforeIt() {
        // A plain request, then a chunked one in the same write: the first is decoded here, the rest
        // (the chunked one and the plain one after it) by Netty, all answered in order.
        String get = "{\"TableName\":\"plain\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}}";
        byte[] chunked = ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n" + TARGET
                        + "ListTables\r\n" + AUTH + "\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> three = List.of(getItem(), chunked, call("GetItem", get, ""));
        List<String> expected = answers(HEALTH_CHECK.getBytes(StandardCharsets.US_ASCII), three);
        byte[] all = concat(concat(three.get(0), three.get(1)), three.get(2));
        assertThat(exchange(List.of(all), three.size())).isEqualTo(expected);
        assertThat(expected.get(0)).startsWith("HTTP/1.1 200").contains("\"note\"");
        assertThat(expected.get(1)).startsWith("HTTP/1.1 200").contains("\"TableNames\"");
    }

    private static void assertSameAnswers(List<byte[]> requests) {
        List<String> viaNetty = answers(HEALTH_CHECK.getBytes(StandardCharsets.US_ASCII), requests);
        List<String> viaPlain = answers(new byte[0], requests);
        assertThat(viaPlain).isEqualTo(viaNetty);
        assertThat(viaPlain.get(0)).doesNotStartWith("HTTP/1.1 5");
    }

    /** The answers to requests sent one after another on one connection, after first (not counted). */
    private static List<String> answers(byte[] first, List<byte[]> requests) {
        List<byte[]> writes = new ArrayList<>();
        int skipped = 0;
        if (first.length > 0) {
            writes.add(first);
            skipped = 1;
        }
        writes.addAll(requests);
        List<String> all = exchange(writes, skipped + requests.size());
        return all.subList(skipped, all.size());
    }

    /** Writes each piece with a pause (so the server reads them apart), then reads count answers. */
    private static List<String> exchange(List<byte[]> writes, int count) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            List<String> answers = new ArrayList<>();
            for (byte[] w : writes) {
                out.write(w);
                out.flush();
                Thread.sleep(2);
            }
            for (int i = 0; i < count; i++) {
                String answer = readAnswer(in);
                if (answer == null) {
                    break; // the server closed the connection (as after an HTTP/1.0 answer or a 400)
                }
                answers.add(normalized(answer));
            }
            return answers;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One final answer (an interim 100 Continue is skipped), its head and body as text; null at the end. */
    private static String readAnswer(InputStream in) throws IOException {
        while (true) {
            String head = readHead(in);
            if (head == null) {
                return null;
            }
            if (head.startsWith("HTTP/1.1 100")) {
                continue;
            }
            int at = head.toLowerCase(Locale.ROOT).indexOf("content-length:");
            assertThat(at).as("a Content-Length in %s", head).isPositive();
            int length = Integer.parseInt(
                    head.substring(at + 15, head.indexOf('\r', at)).trim());
            return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0 && head.size() == 0) {
                return null;
            }
            assertThat(b)
                    .as("a whole answer before the connection closed: %s", head)
                    .isNotNegative();
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** The answer without the lines that differ between any two answers (request id, date). */
    private static String normalized(String answer) {
        StringBuilder out = new StringBuilder();
        for (String line : answer.split("\r\n", -1)) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (!lower.startsWith("x-amzn-requestid:") && !lower.startsWith("date:")) {
                out.append(line).append("\r\n");
            }
        }
        return out.toString();
    }

    /** bytes cut at random places into 1 to 8 pieces. */
    private static List<byte[]> pieces(byte[] bytes, Random random) {
        List<byte[]> out = new ArrayList<>();
        int cuts = random.nextInt(8);
        int from = 0;
        for (int i = 0; i < cuts && from < bytes.length - 1; i++) {
            int to = from + 1 + random.nextInt(bytes.length - from - 1);
            out.add(java.util.Arrays.copyOfRange(bytes, from, to));
            from = to;
        }
        out.add(java.util.Arrays.copyOfRange(bytes, from, bytes.length));
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
