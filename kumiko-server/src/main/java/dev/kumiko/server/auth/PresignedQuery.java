package dev.kumiko.server.auth;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * A presigned (query-string) SigV4 request: {@code X-Amz-Algorithm}, {@code X-Amz-Credential},
 * {@code X-Amz-Date}, {@code X-Amz-Expires}, {@code X-Amz-SignedHeaders} and {@code X-Amz-Signature}
 * (plus an optional {@code X-Amz-Security-Token}) in the query instead of an Authorization header.
 * Parsing only; the verifier judges the values.
 */
record PresignedQuery(
        AuthorizationHeader auth,
        String amzDate,
        long expiresSeconds,
        @Nullable String securityToken,
        String queryWithoutSignature) {
    /** SigV4's longest validity for a presigned request: seven days. */
    static final long EXPIRES_SECONDS_MAX = 7 * 24 * 60 * 60L;

    static final String SIGNATURE = "X-Amz-Signature";

    /** Whether a query carries query-string authentication at all (any X-Amz-Algorithm or X-Amz-Signature). */
    static boolean isPresigned(@Nullable String rawQuery) {
        if (rawQuery == null) {
            return false;
        }
        Map<String, String> params = params(rawQuery);
        return params.containsKey("X-Amz-Algorithm") || params.containsKey(SIGNATURE);
    }

    static PresignedQuery parse(String rawQuery) {
        Map<String, String> params = params(rawQuery);
        String algorithm = required(params, "X-Amz-Algorithm");
        String credential = required(params, "X-Amz-Credential");
        String signature = required(params, SIGNATURE);
        String signedHeaders = required(params, "X-Amz-SignedHeaders");
        String amzDate = required(params, "X-Amz-Date");
        if (!SigV4Signing.ALGORITHM.equals(algorithm)) {
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "Unsupported AWS 'algorithm': '" + algorithm + "'. Only " + SigV4Signing.ALGORITHM
                            + " is supported.");
        }
        long expires = expiresSeconds(params.get("X-Amz-Expires"));
        String[] scope = credential.split("/", -1);
        if (scope.length != 5 || scope[0].isEmpty()) {
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "Credential should be scoped to a valid " + "region, not '" + (scope.length > 2 ? scope[2] : "")
                            + "'. ");
        }
        AuthorizationHeader auth = new AuthorizationHeader(
                scope[0],
                scope[1],
                scope[2],
                scope[3],
                scope[4],
                Arrays.asList(signedHeaders.split(";", -1)),
                signedHeaders,
                signature);
        return new PresignedQuery(
                auth, amzDate, expires, params.get("X-Amz-Security-Token"), withoutSignature(rawQuery));
    }

    /** A parameter every presigned request carries, not empty. */
    private static String required(Map<String, String> params, String name) {
        String value = params.get(name);
        if (value == null || value.isEmpty()) {
            // UNVERIFIED wording: AWS's query-string counterpart of "Authorization header requires ...".
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "AWS query-string parameters must " + "include '" + name
                            + "'. Re-examine the query-string parameters.");
        }
        return value;
    }

    /** X-Amz-Expires: whole seconds from 1 to seven days; absent means the 15-minute clock skew alone. */
    private static long expiresSeconds(@Nullable String text) {
        if (text == null) {
            return -1;
        }
        long seconds;
        try {
            seconds = Long.parseLong(text);
        } catch (NumberFormatException e) {
            seconds = 0;
        }
        if (seconds <= 0 || seconds > EXPIRES_SECONDS_MAX) {
            // UNVERIFIED wording (after S3's text for the same limit).
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "X-Amz-Expires must be a number of seconds " + "from 1 to " + EXPIRES_SECONDS_MAX + ", not '" + text
                            + "'.");
        }
        return seconds;
    }

    /** Names and values percent-decoded; the first of a repeated name wins. */
    private static Map<String, String> params(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : rawQuery.split("&")) {
            int eq = part.indexOf('=');
            String name = SigV4Signing.percentDecode(eq < 0 ? part : part.substring(0, eq));
            out.putIfAbsent(name, SigV4Signing.percentDecode(eq < 0 ? "" : part.substring(eq + 1)));
        }
        return out;
    }

    /** The query as signed: every parameter but the signature itself. */
    private static String withoutSignature(String rawQuery) {
        StringJoiner kept = new StringJoiner("&");
        for (String part : rawQuery.split("&")) {
            int eq = part.indexOf('=');
            if (!SIGNATURE.equals(SigV4Signing.percentDecode(eq < 0 ? part : part.substring(0, eq)))) {
                kept.add(part);
            }
        }
        return kept.toString();
    }
}
