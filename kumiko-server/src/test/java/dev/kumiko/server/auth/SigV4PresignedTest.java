package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.RawHttp;
import dev.kumiko.server.SdkSigner;
import dev.kumiko.server.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --auth=sigv4}: presigned (query-string) requests made by the SDK's own signer, and which of
 * MissingAuthenticationToken, IncompleteSignature, InvalidSignature and UnrecognizedClient wins when a
 * request has several faults.
 */
class SigV4PresignedTest {
    /** 2026-03-01T00:00:00Z, the server's fixed time. */
    private static final long NOW_MILLIS = 1_772_323_200_000L;

    private static final Instant NOW = Instant.ofEpochMilli(NOW_MILLIS);
    private static final String LIST_TABLES = "DynamoDB_20120810.ListTables";
    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);
    private static final String EXPIRED_STAMP = "20260228T234459Z";

    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(
                TestServer.StoreKind.MEMORY,
                EngineSettings.DEFAULTS,
                new ManualClock(NOW_MILLIS),
                TestServer.Security.sigV4(SigV4AuthTest.KEYS));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static SdkSigner.Presigned presign(byte[] body, Instant at, Duration expires, boolean signPayload) {
        return SdkSigner.presign(
                server.port(),
                LIST_TABLES,
                Map.of("Content-Length", Integer.toString(body.length)),
                body,
                "AKIAALICE",
                "alice-secret",
                at,
                expires,
                signPayload);
    }

    private static RawHttp.Response send(SdkSigner.Presigned p, byte[] body) {
        return RawHttp.post(server.port(), p.pathAndQuery(), p.headers(), body);
    }

    private static void assertError(RawHttp.Response r, String type, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.body())
                .isEqualTo("{\"__type\":\"com.amazon.coral.service#" + type + "\",\"message\":\"" + message + "\"}");
    }

    @Test
    void aPresignedRequestWithItsPayloadSignedWorks() {
        SdkSigner.Presigned p = presign(EMPTY_OBJECT, NOW, Duration.ofMinutes(5), true);
        assertThat(p.uri().getRawQuery()).contains("X-Amz-Signature=").contains("X-Amz-Expires=300");
        assertThat(p.headers()).doesNotContainKey("Authorization");
        RawHttp.Response r = send(p, EMPTY_OBJECT);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("TableNames");
    }

    @Test
    void aPresignedRequestWithAnUnsignedPayloadWorks() {
        RawHttp.Response r = send(presign(EMPTY_OBJECT, NOW, Duration.ofMinutes(5), false), EMPTY_OBJECT);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    @Test
    void aPresignedRequestWithAChangedBodyOrQueryIsRefused() {
        SdkSigner.Presigned p = presign(EMPTY_OBJECT, NOW, Duration.ofMinutes(5), true);
        byte[] other = "{ }".getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>(p.headers());
        headers.put("Content-Length", "3");
        RawHttp.Response body = RawHttp.post(server.port(), p.pathAndQuery(), headers, other);
        assertThat(body.body()).contains("InvalidSignatureException").contains("does not match");

        String longer = p.pathAndQuery().replace("X-Amz-Expires=300", "X-Amz-Expires=900");
        assertThat(RawHttp.post(server.port(), longer, p.headers(), EMPTY_OBJECT)
                        .body())
                .contains("InvalidSignatureException");
    }

    @Test
    void aPresignedRequestPastItsExpiryIsRefused() {
        SdkSigner.Presigned p = presign(EMPTY_OBJECT, NOW.minusSeconds(61), Duration.ofSeconds(60), true);
        assertError(
                send(p, EMPTY_OBJECT),
                "InvalidSignatureException",
                "Signature expired: 20260228T235859Z is "
                        + "now earlier than 20260228T235900Z (20260301T000000Z - 60 sec.)");
        SdkSigner.Presigned within = presign(EMPTY_OBJECT, NOW.minusSeconds(60), Duration.ofSeconds(60), true);
        assertThat(send(within, EMPTY_OBJECT).status()).isEqualTo(200);
        // X-Amz-Expires, not the 15 minutes of clock skew, bounds a presigned request's age.
        SdkSigner.Presigned hourLong = presign(EMPTY_OBJECT, NOW.minusSeconds(1800), Duration.ofHours(1), true);
        assertThat(send(hourLong, EMPTY_OBJECT).status()).isEqualTo(200);
        SdkSigner.Presigned future = presign(EMPTY_OBJECT, NOW.plusSeconds(901), Duration.ofHours(1), true);
        assertThat(send(future, EMPTY_OBJECT).body()).contains("Signature not yet current");
    }

    @Test
    void anExpiryOverSevenDaysIsRefused() {
        SdkSigner.Presigned p = presign(EMPTY_OBJECT, NOW, Duration.ofMinutes(5), true);
        String tooLong = p.pathAndQuery().replace("X-Amz-Expires=300", "X-Amz-Expires=604801");
        assertError(
                RawHttp.post(server.port(), tooLong, p.headers(), EMPTY_OBJECT),
                "IncompleteSignatureException",
                "X-Amz-Expires must be a number of seconds from 1 to 604800, not '604801'.");
    }

    @Test
    void anExpiredSignatureWinsOverAnUnknownKeyAndAWrongSignature() {
        Instant old = NOW.minusSeconds(901);
        Map<String, String> unknown = SdkSigner.sign(
                server.port(),
                LIST_TABLES,
                Map.of("Content-Length", "2"),
                EMPTY_OBJECT,
                "AKIANOBODY",
                "whatever",
                null,
                "dynamodb",
                old);
        String expired = "Signature expired: " + EXPIRED_STAMP + " is now earlier than 20260228T234500Z "
                + "(20260301T000000Z - 15 min.)";
        assertError(RawHttp.post(server.port(), "/", unknown, EMPTY_OBJECT), "InvalidSignatureException", expired);
        Map<String, String> wrongSecret = SdkSigner.sign(
                server.port(),
                LIST_TABLES,
                Map.of("Content-Length", "2"),
                EMPTY_OBJECT,
                "AKIAALICE",
                "not-alice",
                null,
                "dynamodb",
                old);
        assertError(RawHttp.post(server.port(), "/", wrongSecret, EMPTY_OBJECT), "InvalidSignatureException", expired);
        SdkSigner.Presigned p = presign(EMPTY_OBJECT, NOW.minusSeconds(7201), Duration.ofHours(1), true);
        String signature = p.pathAndQuery().replaceAll(".*X-Amz-Signature=([0-9a-f]+).*", "$1");
        String wrong = p.pathAndQuery().replace(signature, "0".repeat(signature.length()));
        assertError(
                RawHttp.post(server.port(), wrong, p.headers(), EMPTY_OBJECT),
                "InvalidSignatureException",
                "Signature expired: 20260228T215959Z is now earlier than 20260228T230000Z (20260301T000000Z - "
                        + "3600 sec.)");
    }

    @Test
    void anIncompleteHeaderWinsOverAnExpiredTimeAndAMissingTokenOverAll() {
        Map<String, String> headers = SdkSigner.sign(
                server.port(),
                LIST_TABLES,
                Map.of("Content-Length", "2"),
                EMPTY_OBJECT,
                "AKIANOBODY",
                "whatever",
                null,
                "dynamodb",
                NOW.minusSeconds(901));
        String credential = "AWS4-HMAC-SHA256 Credential=AKIANOBODY/20260228/us-west-2/dynamodb/aws4_request";
        headers.put("Authorization", credential);
        assertError(
                RawHttp.post(server.port(), "/", headers, EMPTY_OBJECT),
                "IncompleteSignatureException",
                "Authorization header requires 'Signature' parameter. Authorization header requires "
                        + "'SignedHeaders' parameter. Authorization=" + credential);
        headers.remove("Authorization");
        assertError(
                RawHttp.post(server.port(), "/", headers, EMPTY_OBJECT),
                "MissingAuthenticationTokenException",
                "Request is missing Authentication Token");
    }

    @Test
    void anUnknownKeyWithACurrentTimeIsUnrecognized() {
        Map<String, String> headers = SdkSigner.sign(
                server.port(),
                LIST_TABLES,
                Map.of("Content-Length", "2"),
                EMPTY_OBJECT,
                "AKIANOBODY",
                "whatever",
                null,
                "dynamodb",
                NOW);
        assertError(
                RawHttp.post(server.port(), "/", headers, EMPTY_OBJECT),
                "UnrecognizedClientException",
                "The security token included in the request is invalid.");
    }
}
