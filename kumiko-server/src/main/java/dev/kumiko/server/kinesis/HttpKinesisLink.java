package dev.kumiko.server.kinesis;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.kinesis.KinesisLink;
import dev.kumiko.server.auth.AccessKey;
import dev.kumiko.server.auth.SigV4Signing;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.protocol.Fields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A Kinesis-compatible service over HTTP with Kinesis' JSON protocol (POST /, content type
 * application/x-amz-json-1.1, X-Amz-Target Kinesis_20131202.OPERATION), signed with SigV4 for the
 * service {@code kinesis} in the server's region: with the credentials file's first key when the
 * server has one (--auth=sigv4), otherwise with a placeholder key, which a local service such as
 * kinesalite accepts and AWS would refuse. No answer, a 5xx or a throttling answer is
 * {@link KinesisLink.Unreachable} (tried again later).
 */
public final class HttpKinesisLink implements KinesisLink {
    /** How long one call may take: a PutRecords body is at most a few MiB. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final String TARGET_PREFIX = "Kinesis_20131202.";
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final URI endpoint;
    private final String region;
    private final @Nullable AccessKey key;
    private final HttpClient client;

    public HttpKinesisLink(URI endpoint, String region, @Nullable AccessKey key) {
        this.endpoint = endpoint.getPath() == null || endpoint.getPath().isEmpty() ? endpoint.resolve("/") : endpoint;
        this.region = region;
        this.key = key;
        this.client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** The --kinesis-endpoint value as a URI, or an explanation of what is wrong with it. */
    public static URI parseEndpoint(String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("--kinesis-endpoint " + value + " is not a URL: " + e.getMessage(), e);
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new IllegalArgumentException("--kinesis-endpoint " + value + " is not an http:// or https:// URL");
        }
        return uri;
    }

    @Override
    public @Nullable String streamStatus(String streamName) {
        Map<String, Object> answer =
                call("DescribeStreamSummary", body(g -> g.writeStringField("StreamName", streamName)));
        if (answer == null) {
            return null;
        }
        Map<String, Object> summary = Fields.object(answer, "StreamDescriptionSummary");
        String status = summary == null ? null : Fields.string(summary, "StreamStatus");
        if (status == null) {
            throw new Unreachable("Kinesis answered DescribeStreamSummary without a StreamStatus", null);
        }
        return status;
    }

    @Override
    public int putRecords(String streamName, List<Outgoing> records) {
        byte[] body = body(g -> {
            g.writeStringField("StreamName", streamName);
            g.writeArrayFieldStart("Records");
            for (Outgoing o : records) {
                g.writeStartObject();
                g.writeFieldName("Data");
                byte[] data = KinesisRecordJson.of(region, o);
                g.writeBinary(data);
                g.writeStringField("PartitionKey", o.partitionKey());
                g.writeEndObject();
            }
            g.writeEndArray();
        });
        Map<String, Object> answer = call("PutRecords", body);
        if (answer == null) {
            // The stream went away after it was enabled: its records wait, as for an unreachable service.
            throw new Unreachable("the Kinesis data stream " + streamName + " was not found", null);
        }
        return acceptedPrefix(answer, records.size());
    }

    /** How many records from the first were accepted, from PutRecords' per-record answers. */
    static int acceptedPrefix(Map<String, Object> answer, int sent) {
        List<Object> results = Fields.list(answer, "Records");
        if (results == null || results.size() != sent) {
            throw new Unreachable(
                    "Kinesis answered PutRecords with " + (results == null ? "no" : results.size()) + " results for "
                            + sent + " records",
                    null);
        }
        for (int i = 0; i < sent; i++) {
            Map<String, Object> r = Fields.asObject(results.get(i));
            if (r == null || r.get("ErrorCode") != null || Fields.string(r, "SequenceNumber") == null) {
                return i;
            }
        }
        return sent;
    }

    /** The operation's answer; null when the service answered ResourceNotFoundException. */
    private @Nullable Map<String, Object> call(String operation, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("X-Amz-Target", TARGET_PREFIX + operation)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        AccessKey k = key;
        if (k != null) {
            sign(b, operation, body, k.accessKeyId(), k.secretAccessKey(), k.sessionToken());
        } else {
            sign(b, operation, body, "kumiko-kinesis", "unverified", null);
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new Unreachable("Kinesis at " + endpoint + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted", e);
        }
        byte[] answer = response.body();
        int status = response.statusCode();
        if (status == 200) {
            return JsonTree.parseObject(answer, 0, answer.length);
        }
        String text = new String(answer, StandardCharsets.UTF_8);
        if (status == 400 && text.contains("ResourceNotFoundException")) {
            return null;
        }
        throw new Unreachable("Kinesis answered " + operation + " with " + status + ": " + text, null);
    }

    /** Writes one JSON object with the members writer adds. */
    private static byte[] body(Members writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JsonTree.factory().createGenerator(bytes)) {
            g.writeStartObject();
            writer.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @FunctionalInterface
    private interface Members {
        void write(JsonGenerator g) throws IOException;
    }

    /** SigV4 over host, x-amz-date and x-amz-target, for the server's region and service kinesis. */
    private void sign(
            HttpRequest.Builder b,
            String operation,
            byte[] body,
            String accessKeyId,
            String secretAccessKey,
            @Nullable String token) {
        String amzDate = AMZ_DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
        String date = amzDate.substring(0, 8);
        String host = endpoint.getPort() < 0 ? endpoint.getHost() : endpoint.getHost() + ":" + endpoint.getPort();
        String target = TARGET_PREFIX + operation;
        String signedHeaders = "host;x-amz-date;x-amz-target";
        String canonicalHeaders = "host:" + host + "\nx-amz-date:" + amzDate + "\nx-amz-target:" + target + "\n";
        String canonical = SigV4Signing.canonicalRequest(
                "POST",
                SigV4Signing.canonicalUri(endpoint.getRawPath()),
                "",
                canonicalHeaders,
                signedHeaders,
                SigV4Signing.sha256Hex(body));
        String scope = date + "/" + region + "/kinesis/" + SigV4Signing.TERMINATOR;
        String signature = SigV4Signing.signature(
                SigV4Signing.signingKey(secretAccessKey, date, region, "kinesis"),
                SigV4Signing.stringToSign(amzDate, scope, canonical));
        b.header("X-Amz-Date", amzDate);
        b.header(
                "Authorization",
                SigV4Signing.ALGORITHM + " Credential=" + accessKeyId + "/" + scope + ", SignedHeaders=" + signedHeaders
                        + ", Signature=" + signature);
        if (token != null) {
            b.header("X-Amz-Security-Token", token);
        }
    }
}
