package dev.kumiko.server.exchange;

import dev.kumiko.server.auth.SigV4Signing;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three S3 calls exports and imports need (PutObject, GetObject, ListObjectsV2), path-style
 * against one S3-compatible endpoint, signed with Signature Version 4 using the server's own SigV4
 * primitives. Kept this small on purpose: the AWS SDK's S3 client would add some 10 MB of jars to
 * the server's runtime for these three calls.
 */
final class S3Client {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);
    /** ListObjectsV2 pages one listing reads at most (1,000 keys each). */
    static final int LIST_PAGES_MAX = 1_000;

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final Pattern KEY = Pattern.compile("<Key>(.*?)</Key>", Pattern.DOTALL);
    private static final Pattern TOKEN = Pattern.compile("<NextContinuationToken>(.*?)</NextContinuationToken>");

    /** Where to reach S3 and as whom. */
    record Settings(URI endpoint, String region, String accessKeyId, String secretAccessKey, String sessionToken) {}

    private final Settings settings;
    private final HttpClient http;

    S3Client(Settings settings) {
        this.settings = settings;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    void putObject(String bucket, String key, byte[] body) throws IOException {
        HttpResponse<byte[]> r = send("PUT", bucket, key, "", body);
        if (r.statusCode() / 100 != 2) {
            throw failure("PutObject", bucket, key, r);
        }
    }

    byte[] getObject(String bucket, String key) throws IOException {
        HttpResponse<byte[]> r = send("GET", bucket, key, "", new byte[0]);
        if (r.statusCode() == 404) {
            throw new java.io.FileNotFoundException("s3://" + bucket + "/" + key + " does not exist");
        }
        if (r.statusCode() / 100 != 2) {
            throw failure("GetObject", bucket, key, r);
        }
        return r.body();
    }

    List<String> listObjects(String bucket, String prefix, int limit) throws IOException {
        List<String> keys = new ArrayList<>();
        String token = null;
        for (int page = 0; page < LIST_PAGES_MAX && keys.size() < limit; page++) {
            String query = "list-type=2&prefix=" + encode(prefix)
                    + (token == null ? "" : "&continuation-token=" + encode(token));
            HttpResponse<byte[]> r = send("GET", bucket, "", query, new byte[0]);
            if (r.statusCode() / 100 != 2) {
                throw failure("ListObjectsV2", bucket, prefix, r);
            }
            String xml = new String(r.body(), StandardCharsets.UTF_8);
            Matcher m = KEY.matcher(xml);
            while (m.find() && keys.size() < limit) {
                keys.add(unescapeXml(m.group(1)));
            }
            Matcher t = TOKEN.matcher(xml);
            if (!xml.contains("<IsTruncated>true</IsTruncated>") || !t.find()) {
                break;
            }
            token = unescapeXml(t.group(1));
        }
        return keys;
    }

    private HttpResponse<byte[]> send(String method, String bucket, String key, String query, byte[] body)
            throws IOException {
        String path = "/" + encode(bucket) + (key.isEmpty() ? "/" : "/" + encodePath(key));
        URI base = settings.endpoint();
        String basePath = base.getRawPath() == null || base.getRawPath().equals("/") ? "" : base.getRawPath();
        URI uri = URI.create(base.getScheme() + "://" + base.getRawAuthority() + basePath + path
                + (query.isEmpty() ? "" : "?" + query));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .method(
                        method,
                        body.length == 0 && !"PUT".equals(method)
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        sign(b, method, basePath + path, query, uri, body);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while calling S3", e);
        }
    }

    private void sign(HttpRequest.Builder b, String method, String path, String query, URI uri, byte[] body) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        String amzDate = AMZ_DATE.format(now);
        String date = amzDate.substring(0, 8);
        String payloadHash = SigV4Signing.sha256Hex(body);
        String host = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        List<String> names = new ArrayList<>(List.of("host", "x-amz-content-sha256", "x-amz-date"));
        if (settings.sessionToken() != null) {
            names.add("x-amz-security-token");
        }
        String canonicalHeaders = SigV4Signing.canonicalHeaders(
                names,
                n -> List.of(
                        switch (n) {
                            case "host" -> host;
                            case "x-amz-content-sha256" -> payloadHash;
                            case "x-amz-date" -> amzDate;
                            default -> settings.sessionToken();
                        }));
        String signedHeaders = String.join(";", names);
        String canonical = SigV4Signing.canonicalRequest(
                method, path, SigV4Signing.canonicalQuery(query), canonicalHeaders, signedHeaders, payloadHash);
        String scope = date + "/" + settings.region() + "/s3/" + SigV4Signing.TERMINATOR;
        String signature = SigV4Signing.signature(
                SigV4Signing.signingKey(settings.secretAccessKey(), date, settings.region(), "s3"),
                SigV4Signing.stringToSign(amzDate, scope, canonical));
        b.header("x-amz-content-sha256", payloadHash)
                .header("x-amz-date", amzDate)
                .header(
                        "Authorization",
                        SigV4Signing.ALGORITHM + " Credential=" + settings.accessKeyId() + "/" + scope
                                + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature);
        if (settings.sessionToken() != null) {
            b.header("x-amz-security-token", settings.sessionToken());
        }
    }

    private static IOException failure(String call, String bucket, String key, HttpResponse<byte[]> r) {
        String body = new String(r.body(), StandardCharsets.UTF_8);
        Matcher code = Pattern.compile("<Code>(.*?)</Code>").matcher(body);
        return new IOException(call + " s3://" + bucket + "/" + key + " failed: HTTP " + r.statusCode()
                + (code.find() ? " " + code.group(1) : ""));
    }

    /** An object key's path: each segment encoded, the slashes kept (S3 signs the path encoded once). */
    private static String encodePath(String key) {
        List<String> segments = new ArrayList<>();
        for (String segment : key.split("/", -1)) {
            segments.add(encode(segment));
        }
        return String.join("/", segments);
    }

    /** SigV4's URI encoding: every byte except A-Z a-z 0-9 - _ . ~ as %XX. */
    static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    private static String unescapeXml(String s) {
        return s.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
    }
}
