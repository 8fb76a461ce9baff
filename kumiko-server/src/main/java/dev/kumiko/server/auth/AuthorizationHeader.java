package dev.kumiko.server.auth;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parsed {@code Authorization: AWS4-HMAC-SHA256 Credential=AKID/date/region/service/aws4_request,
 * SignedHeaders=a;b, Signature=hex} header. Parsing only; the verifier judges the values.
 */
record AuthorizationHeader(
        String accessKeyId,
        String scopeDate,
        String region,
        String service,
        String terminator,
        List<String> signedHeaders,
        String signedHeadersText,
        String signature) {
    /** Longer than any header an SDK writes (a few hundred bytes); bounds the work on a hostile one. */
    static final int HEADER_CHARS_MAX = 8 * 1024;

    String scope() {
        return scopeDate + "/" + region + "/" + service + "/" + terminator;
    }

    /**
     * Parses the header; the message of a malformed one lists each missing part as DynamoDB's front end
     * does ("Authorization header requires 'Credential' parameter. ... Authorization=<header>").
     *
     * @param hasDate whether the request carries X-Amz-Date or Date (the same message reports its absence)
     */
    static AuthorizationHeader parse(String header, boolean hasDate) {
        if (header.length() > HEADER_CHARS_MAX) {
            // UNVERIFIED wording: no capture of DynamoDB's answer to an oversized Authorization header.
            throw new DynamoException(ErrorCode.INCOMPLETE_SIGNATURE, "Authorization header is too long");
        }
        String h = header.strip();
        int space = h.indexOf(' ');
        String algorithm = space < 0 ? h : h.substring(0, space);
        if (!SigV4Signing.ALGORITHM.equals(algorithm)) {
            // UNVERIFIED wording: DynamoDB's text for a non-SigV4 scheme (e.g. SigV2's "AWS ...") is not captured.
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "Unsupported AWS 'algorithm': '" + algorithm + "'. Only " + SigV4Signing.ALGORITHM
                            + " is supported.");
        }
        String credential = null;
        String signedHeaders = null;
        String signature = null;
        // Parts are separated by commas, but DynamoDB also takes them separated by spaces alone.
        for (String part : (space < 0 ? "" : h.substring(space + 1)).split("[,\\s]+")) {
            String p = part.strip();
            if (p.startsWith("Credential=")) {
                credential = p.substring("Credential=".length());
            } else if (p.startsWith("SignedHeaders=")) {
                signedHeaders = p.substring("SignedHeaders=".length());
            } else if (p.startsWith("Signature=")) {
                signature = p.substring("Signature=".length());
            }
        }
        StringBuilder missing = new StringBuilder();
        requires(missing, credential, "Authorization header requires 'Credential' parameter. ");
        requires(missing, signature, "Authorization header requires 'Signature' parameter. ");
        requires(missing, signedHeaders, "Authorization header requires 'SignedHeaders' parameter. ");
        if (!hasDate) {
            missing.append("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ");
        }
        // The null tests repeat what missing says, for the nullness checker.
        if (missing.length() > 0 || credential == null || signature == null || signedHeaders == null) {
            throw new DynamoException(ErrorCode.INCOMPLETE_SIGNATURE, missing + "Authorization=" + header);
        }
        String[] scope = credential.split("/", -1);
        if (scope.length != 5 || scope[0].isEmpty()) {
            // UNVERIFIED wording, after AWS's text for a credential of the wrong shape.
            throw new DynamoException(
                    ErrorCode.INCOMPLETE_SIGNATURE,
                    "Credential should be scoped to a valid " + "region, not '" + (scope.length > 2 ? scope[2] : "")
                            + "'. ");
        }
        return new AuthorizationHeader(
                scope[0],
                scope[1],
                scope[2],
                scope[3],
                scope[4],
                Arrays.asList(signedHeaders.split(";", -1)),
                signedHeaders,
                signature);
    }

    private static void requires(StringBuilder missing, @Nullable String value, String sentence) {
        if (value == null || value.isEmpty()) {
            missing.append(sentence);
        }
    }
}
