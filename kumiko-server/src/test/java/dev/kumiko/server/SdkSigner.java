package dev.kumiko.server;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Signs a request with the AWS SDK v2's own SigV4 signer at a chosen time, so that tests check Kumiko
 * against the SDK's signatures (not against Kumiko's signing code).
 */
public final class SdkSigner {
    private SdkSigner() {}

    /** The headers to send: these plus Host, X-Amz-Date, X-Amz-Security-Token and Authorization. */
    public static Map<String, String> sign(
            int port,
            String operation,
            Map<String, String> headers,
            byte[] body,
            String accessKeyId,
            String secret,
            String sessionToken,
            String service,
            Instant at) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .uri(URI.create("http://127.0.0.1:" + port + "/"))
                .method(SdkHttpMethod.POST)
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("X-Amz-Target", operation);
        headers.forEach(request::putHeader);
        AwsCredentialsIdentity identity = sessionToken == null
                ? AwsCredentialsIdentity.create(accessKeyId, secret)
                : AwsSessionCredentialsIdentity.create(accessKeyId, secret, sessionToken);
        SignedRequest signed = AwsV4HttpSigner.create()
                .sign(r -> r.identity(identity)
                        .request(request.build())
                        .payload(ContentStreamProvider.fromByteArray(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-west-2")
                        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)));
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : signed.request().headers().entrySet()) {
            out.put(e.getKey(), String.join(",", e.getValue()));
        }
        return out;
    }

    /** A presigned request: the URI with the query-string signature, and the headers to send with it. */
    public record Presigned(URI uri, Map<String, String> headers) {
        public String pathAndQuery() {
            return uri.getRawPath() + "?" + uri.getRawQuery();
        }
    }

    /** Presigns a POST with the SDK's signer, signing the body's hash or UNSIGNED-PAYLOAD. */
    public static Presigned presign(
            int port,
            String operation,
            Map<String, String> headers,
            byte[] body,
            String accessKeyId,
            String secret,
            Instant at,
            java.time.Duration expires,
            boolean signPayload) {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .uri(URI.create("http://127.0.0.1:" + port + "/"))
                .method(SdkHttpMethod.POST)
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("X-Amz-Target", operation);
        headers.forEach(request::putHeader);
        SignedRequest signed = AwsV4HttpSigner.create()
                .sign(r -> r.identity(AwsCredentialsIdentity.create(accessKeyId, secret))
                        .request(request.build())
                        .payload(ContentStreamProvider.fromByteArray(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-west-2")
                        .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AwsV4HttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, expires)
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, signPayload)
                        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)));
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : signed.request().headers().entrySet()) {
            out.put(e.getKey(), String.join(",", e.getValue()));
        }
        return new Presigned(signed.request().getUri(), out);
    }
}
