package dev.kumiko.server.auth;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Verifies a request's SigV4 signature against the credentials file ({@code --auth=sigv4}). The
 * checks run cheapest first and each ends in DynamoDB's error: a malformed header, the time stamp,
 * the credential scope, the access key, the session token, and last the signature itself.
 */
public final class SigV4Verifier {
    /** DynamoDB's allowed difference between the signer's clock and the server's, either way. */
    public static final long CLOCK_SKEW_MILLIS_MAX = 15 * 60 * 1000L;

    public static final String SERVICE = "dynamodb";
    /** The payload hash a signer writes when it does not sign the body. */
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

    static final DateTimeFormatter BASIC =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Map<String, AccessKey> keys;
    private final Clock clock;

    public SigV4Verifier(Map<String, AccessKey> keys, Clock clock) {
        this.keys = Map.copyOf(keys);
        this.clock = Objects.requireNonNull(clock);
    }

    /** The key that signed a request and the region it signed for. */
    public record Verified(AccessKey key, String region) {}

    /** What the verifier needs of a request: its method, target as sent, header lookup and payload hash. */
    public record SignedRequest(
            String method,
            String rawPath,
            @Nullable String rawQuery,
            Function<String, List<String>> headers,
            String payloadSha256Hex) {
        @Nullable
        String first(String name) {
            List<String> values = headers.apply(name);
            return values.isEmpty() ? null : values.get(0);
        }
    }

    public Verified verify(SignedRequest req) {
        String authorization = req.first("authorization");
        if (authorization == null || authorization.isBlank()) {
            String rawQuery = req.rawQuery();
            if (rawQuery != null && PresignedQuery.isPresigned(rawQuery)) {
                return verifyPresigned(req, PresignedQuery.parse(rawQuery));
            }
            throw new DynamoException(
                    ErrorCode.MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
        }
        String amzDate = req.first("x-amz-date");
        String date = amzDate != null ? null : req.first("date");
        AuthorizationHeader auth = AuthorizationHeader.parse(authorization, amzDate != null || date != null);
        String timeStamp = amzDate != null
                ? amzDate
                : basicFromHttpDate(Objects.requireNonNull(date, "parse refused a request with neither date header"));
        checkTime(timeStamp, true);
        checkScope(auth, timeStamp);
        AccessKey key = keys.get(auth.accessKeyId());
        if (key == null) {
            throw invalidToken();
        }
        checkSessionToken(key, req.first("x-amz-security-token"));
        String payload =
                UNSIGNED_PAYLOAD.equals(req.first("x-amz-content-sha256")) ? UNSIGNED_PAYLOAD : req.payloadSha256Hex();
        checkSignature(req, req.rawQuery(), auth, key, timeStamp, payload, null);
        return new Verified(key, auth.region());
    }

    /**
     * A presigned request: the same checks in the same order as for the header, plus X-Amz-Expires
     * (the request is refused once the signing time plus that many seconds has passed). The payload
     * may be signed as {@code UNSIGNED-PAYLOAD} or as the body's hash.
     */
    private Verified verifyPresigned(SignedRequest req, PresignedQuery query) {
        AuthorizationHeader auth = query.auth();
        checkExpires(query);
        checkScope(auth, query.amzDate());
        AccessKey key = keys.get(auth.accessKeyId());
        if (key == null) {
            throw invalidToken();
        }
        checkSessionToken(
                key, query.securityToken() != null ? query.securityToken() : req.first("x-amz-security-token"));
        checkSignature(
                req,
                query.queryWithoutSignature(),
                auth,
                key,
                query.amzDate(),
                req.payloadSha256Hex(),
                UNSIGNED_PAYLOAD);
        return new Verified(key, auth.region());
    }

    /** X-Amz-Expires replaces the 15 minutes of skew allowed into the past; the future keeps them. */
    private void checkExpires(PresignedQuery query) {
        checkTime(query.amzDate(), query.expiresSeconds() < 0);
        if (query.expiresSeconds() < 0) {
            return;
        }
        long nowMillis = clock.nowMillis();
        long endMillis = parseBasic(query.amzDate()) + query.expiresSeconds() * 1000;
        if (nowMillis > endMillis) {
            // UNVERIFIED wording: modelled on the header's "Signature expired" text.
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "Signature expired: " + query.amzDate()
                            + " is now earlier than " + basic(nowMillis - query.expiresSeconds() * 1000) + " ("
                            + basic(nowMillis) + " - " + query.expiresSeconds() + " sec.)");
        }
    }

    private void checkTime(String timeStamp, boolean checkPast) {
        long signedMillis = parseBasic(timeStamp);
        long nowMillis = clock.nowMillis();
        if (checkPast && signedMillis < nowMillis - CLOCK_SKEW_MILLIS_MAX) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "Signature expired: " + timeStamp
                            + " is now earlier than " + basic(nowMillis - CLOCK_SKEW_MILLIS_MAX) + " ("
                            + basic(nowMillis)
                            + " - 15 min.)");
        }
        if (signedMillis > nowMillis + CLOCK_SKEW_MILLIS_MAX) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "Signature not yet current: " + timeStamp
                            + " is still later than " + basic(nowMillis + CLOCK_SKEW_MILLIS_MAX) + " ("
                            + basic(nowMillis)
                            + " + 15 min.)");
        }
    }

    private static void checkScope(AuthorizationHeader auth, String timeStamp) {
        // UNVERIFIED wordings below: AWS's texts for these, as other AWS services answer them.
        if (!SigV4Signing.TERMINATOR.equals(auth.terminator())) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "Credential should be scoped with a valid " + "terminator: 'aws4_request', not '"
                            + auth.terminator() + "'. ");
        }
        if (!SERVICE.equals(auth.service())) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE, "Credential should be scoped to correct service: '" + SERVICE + "'. ");
        }
        if (auth.region().isEmpty()) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE, "Credential should be scoped to a valid region, " + "not ''. ");
        }
        String day = timeStamp.substring(0, 8);
        if (!day.equals(auth.scopeDate())) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "Date in Credential scope does not match YYYYMMDD "
                            + "from ISO-8601 version of date from HTTP: '" + auth.scopeDate() + "' != '" + day
                            + "', from '"
                            + timeStamp + "'.");
        }
        if (!auth.signedHeaders().contains("host")) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
        }
    }

    /** A key with a session token needs exactly that token; a key without one takes none. */
    private static void checkSessionToken(AccessKey key, @Nullable String token) {
        String expected = key.sessionToken();
        if (expected == null && token == null) {
            return;
        }
        if (expected == null
                || token == null
                || !MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8))) {
            throw invalidToken();
        }
    }

    /** Checks the signature over {@code payload}, or over {@code otherPayload} when that is not null. */
    private static void checkSignature(
            SignedRequest req,
            @Nullable String rawQuery,
            AuthorizationHeader auth,
            AccessKey key,
            String timeStamp,
            String payload,
            @Nullable String otherPayload) {
        byte[] signingKey =
                SigV4Signing.signingKey(key.secretAccessKey(), auth.scopeDate(), auth.region(), auth.service());
        boolean matches = signs(req, rawQuery, auth, signingKey, timeStamp, payload)
                || (otherPayload != null && signs(req, rawQuery, auth, signingKey, timeStamp, otherPayload));
        if (!matches) {
            throw new DynamoException(
                    ErrorCode.INVALID_SIGNATURE,
                    "The request signature we calculated does not "
                            + "match the signature you provided. Check your AWS Secret Access Key and signing method. "
                            + "Consult the service documentation for details.");
        }
    }

    private static boolean signs(
            SignedRequest req,
            @Nullable String rawQuery,
            AuthorizationHeader auth,
            byte[] signingKey,
            String timeStamp,
            String payload) {
        String canonical = SigV4Signing.canonicalRequest(
                req.method(),
                SigV4Signing.canonicalUri(req.rawPath()),
                SigV4Signing.canonicalQuery(rawQuery),
                SigV4Signing.canonicalHeaders(auth.signedHeaders(), req.headers()),
                auth.signedHeadersText(),
                payload);
        String expected =
                SigV4Signing.signature(signingKey, SigV4Signing.stringToSign(timeStamp, auth.scope(), canonical));
        return MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.US_ASCII), auth.signature().getBytes(StandardCharsets.UTF_8));
    }

    private static DynamoException invalidToken() {
        return new DynamoException(
                ErrorCode.UNRECOGNIZED_CLIENT, "The security token included in the request is " + "invalid.");
    }

    static String basic(long epochMillis) {
        return BASIC.format(Instant.ofEpochMilli(epochMillis));
    }

    private static long parseBasic(String timeStamp) {
        try {
            return Instant.from(BASIC.parse(timeStamp)).toEpochMilli();
        } catch (DateTimeParseException e) {
            // UNVERIFIED wording, after AWS's text for a time stamp not in the basic format.
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "Date must be in ISO-8601 'basic format'. Got '" + timeStamp
                            + "'. See http://en.wikipedia.org/wiki/ISO_8601");
        }
    }

    /** The HTTP Date header (RFC 1123) as the basic ISO-8601 stamp the string to sign uses. */
    private static String basicFromHttpDate(String httpDate) {
        try {
            return BASIC.format(DateTimeFormatter.RFC_1123_DATE_TIME.parse(httpDate.strip(), Instant::from));
        } catch (DateTimeParseException e) {
            return httpDate;
        }
    }
}
