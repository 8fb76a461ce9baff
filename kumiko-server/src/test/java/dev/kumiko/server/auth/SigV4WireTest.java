package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.RawHttp;
import dev.kumiko.server.SdkSigner;
import dev.kumiko.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --auth=sigv4} on the wire: requests an SDK client will not send (gzip bodies, skewed or
 * missing dates, broken headers), each signed by the SDK's own signer at a fixed time.
 */
class SigV4WireTest {
    /** 2026-03-01T00:00:00Z, the server's fixed time; requests are signed relative to it. */
    private static final long NOW_MILLIS = 1_772_323_200_000L;

    private static final Instant NOW = Instant.ofEpochMilli(NOW_MILLIS);
    private static final String LIST_TABLES = "DynamoDB_20120810.ListTables";
    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);

    private static ManualClock clock;
    private static TestServer server;

    @BeforeAll
    static void start() {
        clock = new ManualClock(NOW_MILLIS);
        server = TestServer.start(
                TestServer.StoreKind.MEMORY,
                EngineSettings.DEFAULTS,
                clock,
                TestServer.Security.sigV4(SigV4AuthTest.KEYS));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, String> signed(
            String target, byte[] body, Map<String, String> extra, Instant at, String secret, String service) {
        Map<String, String> headers = new LinkedHashMap<>(extra);
        headers.put("Content-Length", Integer.toString(body.length));
        return SdkSigner.sign(server.port(), target, headers, body, "AKIAALICE", secret, null, service, at);
    }

    private static Map<String, String> signed(byte[] body, Instant at) {
        return signed(LIST_TABLES, body, Map.of(), at, "alice-secret", "dynamodb");
    }

    private static RawHttp.Response post(Map<String, String> headers, byte[] body) {
        return RawHttp.post(server.port(), "/", headers, body);
    }

    private static void assertError(RawHttp.Response r, String type, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.body())
                .isEqualTo("{\"__type\":\"com.amazon.coral.service#" + type + "\",\"message\":\""
                        + message.replace("\"", "\\\"") + "\"}");
    }

    @Test
    void aSignedRequestOnTheWireWorks() {
        RawHttp.Response r = post(signed(EMPTY_OBJECT, NOW), EMPTY_OBJECT);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("TableNames");
    }

    @Test
    void aGzipBodyIsVerifiedAsSentCompressed() {
        String table = "gzipped";
        byte[] create = ("{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\","
                        + "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
                        + "\"BillingMode\":\"PAY_PER_REQUEST\"}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] gz = gzip(create);
        Map<String, String> gzipHeader = Map.of("Content-Encoding", "gzip");
        RawHttp.Response ok =
                post(signed("DynamoDB_20120810.CreateTable", gz, gzipHeader, NOW, "alice-secret", "dynamodb"), gz);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).contains("\"TableName\":\"gzipped\"");

        // Signed over the uncompressed bytes but sent compressed: not what was signed.
        Map<String, String> wrong =
                signed("DynamoDB_20120810.DescribeTable", create, gzipHeader, NOW, "alice-secret", "dynamodb");
        wrong.put("Content-Length", Integer.toString(gz.length));
        assertError(
                post(wrong, gz),
                "InvalidSignatureException",
                "The request signature we calculated does not "
                        + "match the signature you provided. Check your AWS Secret Access Key and signing method. Consult "
                        + "the service documentation for details.");
    }

    @Test
    void aChangedBodyOrSignedHeaderBreaksTheSignature() {
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        byte[] other = "{ }".getBytes(StandardCharsets.UTF_8);
        headers.put("Content-Length", "3");
        RawHttp.Response body = post(headers, other);
        assertThat(body.body()).contains("InvalidSignatureException");

        Map<String, String> target = signed(EMPTY_OBJECT, NOW);
        target.put("X-Amz-Target", "DynamoDB_20120810.DescribeLimits");
        assertThat(post(target, EMPTY_OBJECT).body()).contains("InvalidSignatureException");
    }

    @Test
    void headerValuesAreCanonicalizedAsTheSpecSays() {
        // Extra spaces inside and around a signed header's value do not change what was signed.
        Map<String, String> headers =
                signed(LIST_TABLES, EMPTY_OBJECT, Map.of("X-Kumiko-Note", "a  b   c"), NOW, "alice-secret", "dynamodb");
        headers.put("X-Kumiko-Note", "  a b  c ");
        assertThat(post(headers, EMPTY_OBJECT).status()).isEqualTo(200);
        headers.put("X-Kumiko-Note", "a b c d");
        assertThat(post(headers, EMPTY_OBJECT).body()).contains("InvalidSignatureException");
    }

    @Test
    void aSignatureUpTo15MinutesOffEitherWayIsCurrent() {
        assertThat(post(signed(EMPTY_OBJECT, NOW.minusSeconds(900)), EMPTY_OBJECT)
                        .status())
                .isEqualTo(200);
        assertThat(post(signed(EMPTY_OBJECT, NOW.plusSeconds(900)), EMPTY_OBJECT)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void anOldSignatureHasExpired() {
        assertError(
                post(signed(EMPTY_OBJECT, NOW.minusSeconds(901)), EMPTY_OBJECT),
                "InvalidSignatureException",
                "Signature expired: 20260228T234459Z is now earlier than 20260228T234500Z (20260301T000000Z - 15 min.)");
    }

    @Test
    void aFutureSignatureIsNotYetCurrent() {
        assertError(
                post(signed(EMPTY_OBJECT, NOW.plusSeconds(901)), EMPTY_OBJECT),
                "InvalidSignatureException",
                "Signature not yet current: 20260301T001501Z is still later than 20260301T001500Z "
                        + "(20260301T000000Z + 15 min.)");
    }

    @Test
    void noAuthorizationHeaderIsAMissingToken() {
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        headers.remove("Authorization");
        assertError(
                post(headers, EMPTY_OBJECT),
                "MissingAuthenticationTokenException",
                "Request is missing Authentication Token");
    }

    @Test
    void anIncompletePresignedQueryNamesWhatIsMissing() {
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        headers.remove("Authorization");
        RawHttp.Response r = RawHttp.post(
                server.port(), "/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=ab", headers, EMPTY_OBJECT);
        assertError(
                r,
                "IncompleteSignatureException",
                "AWS query-string parameters must include "
                        + "'X-Amz-Credential'. Re-examine the query-string parameters.");
    }

    @Test
    void anIncompleteAuthorizationHeaderListsWhatIsMissing() {
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        headers.put("Authorization", "AWS4-HMAC-SHA256 Credential=AKIAALICE/20260301/us-west-2/dynamodb/aws4_request");
        assertError(
                post(headers, EMPTY_OBJECT),
                "IncompleteSignatureException",
                "Authorization header requires "
                        + "'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. Authorization="
                        + "AWS4-HMAC-SHA256 Credential=AKIAALICE/20260301/us-west-2/dynamodb/aws4_request");

        Map<String, String> undated = signed(EMPTY_OBJECT, NOW);
        undated.remove("X-Amz-Date");
        String auth = undated.get("Authorization");
        assertError(
                post(undated, EMPTY_OBJECT),
                "IncompleteSignatureException",
                "Authorization header requires "
                        + "existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=" + auth);
    }

    @Test
    void theHostHeaderMustBeSigned() {
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        headers.put("Authorization", headers.get("Authorization").replace("host;", ""));
        assertError(
                post(headers, EMPTY_OBJECT),
                "InvalidSignatureException",
                "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
    }

    @Test
    void theCredentialScopeMustNameDynamoDbAndTheRequestDate() {
        assertError(
                post(signed(LIST_TABLES, EMPTY_OBJECT, Map.of(), NOW, "alice-secret", "s3"), EMPTY_OBJECT),
                "InvalidSignatureException",
                "Credential should be scoped to correct service: 'dynamodb'. ");
        Map<String, String> headers = signed(EMPTY_OBJECT, NOW);
        headers.put("Authorization", headers.get("Authorization").replace("/20260301/", "/20260228/"));
        assertError(
                post(headers, EMPTY_OBJECT),
                "InvalidSignatureException",
                "Date in Credential scope does not "
                        + "match YYYYMMDD from ISO-8601 version of date from HTTP: '20260228' != '20260301', from "
                        + "'20260301T000000Z'.");
    }

    @Test
    void aValidSignatureThenMeetsTheOperationsOwnErrors() {
        RawHttp.Response r = post(
                signed("DynamoDB_20120810.NoSuchThing", EMPTY_OBJECT, Map.of(), NOW, "alice-secret", "dynamodb"),
                EMPTY_OBJECT);
        assertThat(r.body()).contains("UnknownOperationException");
        byte[] bad = "[".getBytes(StandardCharsets.UTF_8);
        assertThat(post(signed(bad, NOW), bad).body()).contains("SerializationException");
    }

    @Test
    void adminEndpointsAreOffAndTheHealthCheckIsOpen() {
        RawHttp.Response admin = RawHttp.post(
                server.port(),
                "/kumiko/admin/ttl/sweep",
                Map.of("Host", "127.0.0.1", "Content-Length", "0"),
                new byte[0]);
        assertThat(admin.status()).isEqualTo(403);
        assertThat(admin.body()).contains("disabled");
        Map<String, String> signedAdmin = signed(EMPTY_OBJECT, NOW);
        assertThat(RawHttp.post(server.port(), "/kumiko/admin/ttl/sweep", signedAdmin, EMPTY_OBJECT)
                        .status())
                .as("a signature does not open them")
                .isEqualTo(403);
        assertThat(RawHttp.get(server.port(), "/").body()).isEqualTo("healthy: 127.0.0.1 ");
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Test
    void authorizationPartsSeparatedBySpacesOnly() {
        Map<String, String> headers = new LinkedHashMap<>(signed(EMPTY_OBJECT, NOW));
        headers.put("Authorization", headers.get("Authorization").replace(", ", " "));
        assertThat(headers.get("Authorization")).doesNotContain(",");
        RawHttp.Response r = post(headers, EMPTY_OBJECT);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }
}
