package dev.kumiko.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bounded fuzzing of the whole server over raw sockets: mutated corpus requests for every operation,
 * plus mutations only the wire has (broken or lying gzip, wrong Content-Length, truncated bodies,
 * garbage targets and methods, oversized headers and request lines, broken chunking). Each answer
 * must be a 4xx with a DynamoDB __type, a 200, or a closed connection; never a 5xx, never silence.
 * Afterwards the server still serves an SDK client and logged no internal error.
 */
@Tag("slow")
class HttpFuzzTest {
    static final long SEED = 20260103L;
    static final int CASES = FuzzRun.cases(5_000);
    /** Far above any answer's time on a loaded machine; reaching it means the server hung. */
    private static final int READ_TIMEOUT_MILLIS = 20_000;

    private static final String AUTH = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/dynamodb/"
            + "aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0123456789abcdef";

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void mutatedRequestsOverTheWire() throws IOException {
        RequestCorpus corpus = new RequestCorpus();
        List<LogRecord> severe = captureSevere();
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            FuzzRun run = new FuzzRun("http", SEED);
            for (int i = 0; i < CASES; i++) {
                if (i % 200 == 0) {
                    createTable(server.port());
                }
                SplittableRandom r = run.random(i);
                Wire w = wireRequest(r, corpus);
                RawHttp.Outcome o = RawHttp.exchange(server.port(), w.bytes(), w.halfClose(), READ_TIMEOUT_MILLIS);
                String problem = judge(o, w.bytes());
                run.tried(problem == null && o.status() == 200);
                if (problem != null) {
                    run.failed(i, w.bytes(), new AssertionError(problem + "\n" + o.head()));
                }
            }
            run.finish();
            assertThat(server.client().listTables().tableNames()).contains("fuzz");
        }
        assertThat(severe).as("internal errors logged").isEmpty();
    }

    /** Null if the outcome is acceptable, else what is wrong with it. */
    static String judge(RawHttp.Outcome o, byte[] request) {
        if (o.hung()) {
            return "no answer and no close within " + READ_TIMEOUT_MILLIS + " ms";
        }
        if (o.closedWithoutResponse()) {
            return null;
        }
        boolean post = new String(request, 0, Math.min(5, request.length), StandardCharsets.US_ASCII).equals("POST ");
        if (o.status() == 200) {
            // A POST that was answered at all was read as a DynamoDB request (or an admin call): JSON.
            return !post || o.head().toLowerCase(java.util.Locale.ROOT).contains("content-type: application/")
                    ? null
                    : "200 that is not a JSON answer to a POST:\n" + FuzzRun.preview(o.body());
        }
        if (o.status() < 400 || o.status() >= 500) {
            return "status " + o.status();
        }
        boolean head = new String(request, 0, Math.min(5, request.length), StandardCharsets.US_ASCII).equals("HEAD ");
        if (o.status() == 404 || head) {
            // A response to HEAD has no body, by HTTP's rules; 404 is for unknown admin paths.
            return null;
        }
        try {
            Map<String, Object> body = JsonTree.parseObject(o.body(), 0, o.body().length);
            return body.get("__type") instanceof String ? null : "no __type in a " + o.status();
        } catch (RuntimeException e) {
            return "error body is not JSON: " + FuzzRun.preview(o.body());
        }
    }

    record Wire(byte[] bytes, boolean halfClose) {}

    /** A raw HTTP request: a mutated corpus request, sometimes also mutated on the wire. */
    static Wire wireRequest(SplittableRandom r, RequestCorpus corpus) throws IOException {
        RequestCorpus.Request req = corpus.mutated(r);
        String target = (req.streams() ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.") + req.operation();
        String method = "POST";
        String uri = "/";
        byte[] body = req.body();
        List<String> headers = new ArrayList<>(List.of(
                "Host: 127.0.0.1",
                "Connection: close",
                "Content-Type: application/x-amz-json-1.0",
                "X-Amz-Target: " + target,
                "Authorization: " + AUTH));
        String lengthHeader = null;
        boolean halfClose = false;
        switch (r.nextInt(16)) {
            case 0 -> {
                body = gzip(body);
                headers.add("Content-Encoding: gzip");
            }
            case 1 -> {
                body = ByteMutations.mutate(r, gzip(body), new byte[0]);
                headers.add("Content-Encoding: " + (r.nextBoolean() ? "gzip" : "deflate"));
            }
            case 2 ->
                headers.add("Content-Encoding: "
                        + List.of("br", "zstd", "snappy", "identity", "gzip, gzip", "x")
                                .get(r.nextInt(6)));
            case 3 -> {
                lengthHeader = "Content-Length: " + (body.length + 1 + r.nextInt(100));
                halfClose = true;
            }
            case 4 -> lengthHeader = "Content-Length: " + Math.max(0, body.length - 1 - r.nextInt(10));
            case 5 ->
                lengthHeader = "Content-Length: "
                        + List.of("-1", "abc", "99999999999999999999", "1, 2", "")
                                .get(r.nextInt(5));
            case 6 ->
                headers.set(
                        3,
                        "X-Amz-Target: "
                                + List.of(
                                                "",
                                                "DynamoDB_20120810",
                                                "DynamoDB_20120810.",
                                                "DynamoDB_20120810..PutItem",
                                                "DynamoDBStreams_20120810.PutItem",
                                                "AmazonSQS.SendMessage",
                                                "DynamoDB_20120810.\u00e9")
                                        .get(r.nextInt(7)));
            case 7 ->
                method = List.of("GET", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH", "FOO", "")
                        .get(r.nextInt(8));
            case 8 -> headers.add("X-Big: " + "a".repeat(1 << (8 + r.nextInt(8))));
            case 9 ->
                uri = List.of(
                                "/" + "a".repeat(5000),
                                "/kumiko/admin/clock",
                                "/kumiko/admin/ttl/sweep",
                                "/kumiko/admin/nope",
                                "*",
                                "http://x/",
                                "/?a=%zz")
                        .get(r.nextInt(7));
            case 10 -> {
                headers.add("Transfer-Encoding: chunked");
                body = chunked(r, body);
                lengthHeader = "";
            }
            case 11 ->
                headers.set(
                        4,
                        "Authorization: "
                                + List.of(
                                                "",
                                                "AWS4-HMAC-SHA256",
                                                "Bearer x",
                                                "AWS4-HMAC-SHA256 Credential=/",
                                                "AWS4-HMAC-SHA256 Credential=a/b/c/d/e/f/g/h")
                                        .get(r.nextInt(5)));
            case 12 -> halfClose = true;
            default -> {}
        }
        if (lengthHeader == null) {
            lengthHeader = "Content-Length: " + body.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write((method + " " + uri + " HTTP/1.1\r\n").getBytes(StandardCharsets.UTF_8));
        for (String h : headers) {
            out.write((h + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        if (!lengthHeader.isEmpty()) {
            out.write((lengthHeader + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        out.write("\r\n".getBytes(StandardCharsets.UTF_8));
        out.write(body);
        return new Wire(out.toByteArray(), halfClose);
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    /** The body in chunks, sometimes with a lying or malformed chunk size. */
    private static byte[] chunked(SplittableRandom r, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int n = Math.min(body.length - at, 1 + r.nextInt(64));
            String size = r.nextInt(20) == 0
                    ? List.of("zz", "-1", "ffffffffff", "").get(r.nextInt(4))
                    : Integer.toHexString(n);
            out.writeBytes((size + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, at, n);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            at += n;
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static void createTable(int port) throws IOException {
        byte[] body = RequestCorpus.TABLE_JSON.getBytes(StandardCharsets.UTF_8);
        String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Amz-Target: DynamoDB_20120810."
                + "CreateTable\r\nAuthorization: " + AUTH + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(head.getBytes(StandardCharsets.UTF_8));
        out.write(body);
        RawHttp.exchange(port, out.toByteArray(), false, READ_TIMEOUT_MILLIS);
    }

    /** Records SEVERE log records of the server's HTTP layer (where internal errors are logged). */
    private static List<LogRecord> captureSevere() {
        List<LogRecord> records = java.util.Collections.synchronizedList(new ArrayList<>());
        Logger.getLogger("dev.kumiko.server.http").addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        return records;
    }
}
