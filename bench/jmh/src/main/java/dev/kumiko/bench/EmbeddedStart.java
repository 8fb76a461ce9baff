package dev.kumiko.bench;

import dev.kumiko.embedded.Kumiko;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Cold start of Kumiko embedded ({@code kumiko-junit}), as the first test class of a JVM pays it:
 * run once per fresh JVM. Prints one JSON line: the time {@code Kumiko.inMemory()} takes with no
 * Kumiko class loaded yet, and then the time to a first answered ListTables over a plain socket
 * (no SDK: its own start is the application's, and would hide Kumiko's). With --jdk-warmup it first
 * uses what a JUnit launcher has already used (see {@link EngineStart}).
 */
public final class EmbeddedStart {
    /** A ListTables answer is a few hundred bytes; more than this means the read went wrong. */
    private static final int ANSWER_BYTES_MAX = 64 * 1024;

    private EmbeddedStart() {}

    public static void main(String[] args) throws IOException {
        if (java.util.Arrays.asList(args).contains("--jdk-warmup")) {
            EngineStart.warmUpJdk();
        }
        long t0 = System.nanoTime();
        try (Kumiko kumiko = Kumiko.inMemory()) {
            long t1 = System.nanoTime();
            String answer = listTables(kumiko.port());
            long t2 = System.nanoTime();
            if (!answer.startsWith("HTTP/1.1 200") || !answer.contains("TableNames")) {
                throw new IllegalStateException("ListTables did not answer: " + answer);
            }
            System.out.printf(
                    "{\"embedded_start_ms\":%.2f,\"first_answer_ms\":%.2f}%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6);
        }
    }

    /** One ListTables over a new connection; the whole answer (the server closes the connection). */
    private static String listTables(int port) throws IOException {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
                + "Content-Type: application/x-amz-json-1.0\r\n"
                + "Authorization: AWS4-HMAC-SHA256 Credential=kumiko/20260101/us-east-1/dynamodb/aws4_request, "
                + "SignedHeaders=host, Signature=0\r\n"
                + "Connection: close\r\nContent-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] answer = in.readNBytes(ANSWER_BYTES_MAX);
            return new String(answer, StandardCharsets.UTF_8);
        }
    }
}
