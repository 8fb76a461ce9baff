package dev.kumiko.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange over a plain socket, byte for byte as written: the request line, these
 * headers only (nothing added) and the body. For requests that an SDK will not send, such as a
 * signed gzip body or a missing Authorization header.
 */
public final class RawHttp {
    private static final int TIMEOUT_MILLIS = 20_000;

    public record Response(int status, String body) {}

    private RawHttp() {}

    public static Response get(int port, String path) {
        return exchange(port, "GET", path, Map.of("Host", "127.0.0.1"), new byte[0]);
    }

    public static Response post(int port, String path, Map<String, String> headers, byte[] body) {
        return exchange(port, "POST", path, headers, body);
    }

    private static Response exchange(int port, String method, String path, Map<String, String> headers, byte[] body) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(TIMEOUT_MILLIS);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            return read(s.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        assert end > 0 : "no HTTP response head in: " + text;
        int status = Integer.parseInt(text.substring(9, 12));
        String head = text.substring(0, end).toLowerCase(Locale.ROOT);
        assert !head.contains("transfer-encoding: chunked") : "the server answers with Content-Length";
        return new Response(status, text.substring(end + 4));
    }
}
