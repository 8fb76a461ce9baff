package dev.kumiko.server.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP exchange over a raw socket, for requests no HTTP client would send: it writes the bytes,
 * optionally half-closes, and reads until the server closes. The outcome is the response bytes,
 * "closed" (the server dropped the connection without a response) or "hung" (nothing within the
 * read timeout).
 */
final class RawHttp {
    record Outcome(int status, String head, byte[] body, boolean closedWithoutResponse, boolean hung) {}

    private RawHttp() {}

    static Outcome exchange(int port, byte[] request, boolean halfClose, int readTimeoutMillis) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(readTimeoutMillis);
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
                if (halfClose) {
                    s.shutdownOutput();
                }
            } catch (IOException e) {
                // The server may refuse and close before the whole request is written (413, 400).
            }
            return read(s.getInputStream());
        }
    }

    private static Outcome read(InputStream in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            return new Outcome(0, "", out.toByteArray(), false, true);
        } catch (IOException e) {
            // Connection reset: the server closed with unread request bytes; what arrived still counts.
        }
        return parse(out.toByteArray());
    }

    static Outcome parse(byte[] raw) {
        if (raw.length == 0) {
            return new Outcome(0, "", raw, true, false);
        }
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        byte[] body = end < 0 ? new byte[0] : java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        int status = 0;
        if (head.startsWith("HTTP/1.1 ") && head.length() >= 12) {
            status = Integer.parseInt(head.substring(9, 12));
        }
        return new Outcome(status, head, body, false, false);
    }
}
