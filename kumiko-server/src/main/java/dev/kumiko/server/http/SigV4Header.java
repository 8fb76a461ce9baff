package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;

/**
 * Reads the parts of an {@code Authorization: AWS4-HMAC-SHA256 Credential=AKID/date/region/service/
 * aws4_request, SignedHeaders=..., Signature=...} header that routing needs: the region. The
 * signature itself is not verified here (that is the --auth=sigv4 mode's job).
 */
public final class SigV4Header {
    private static final String ALGORITHM = "AWS4-HMAC-SHA256";

    private SigV4Header() {}

    /** The credential scope's region; throws DynamoDB's errors for a missing or malformed header. */
    public static String region(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw new DynamoException(ErrorCode.MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
        }
        String h = authorization.trim();
        if (!h.startsWith(ALGORITHM + " ")) {
            throw incomplete(h);
        }
        int c = h.indexOf("Credential=");
        if (c < 0 || !h.contains("Signature=") || !h.contains("SignedHeaders=")) {
            throw incomplete(h);
        }
        // The credential ends at a comma or, in headers that separate parts with spaces only, a space.
        int start = c + "Credential=".length();
        int end = start;
        while (end < h.length() && h.charAt(end) != ',' && !Character.isWhitespace(h.charAt(end))) {
            end++;
        }
        String credential = h.substring(start, end);
        String[] scope = credential.split("/");
        if (scope.length != 5 || scope[2].isEmpty() || !"aws4_request".equals(scope[4])) {
            throw incomplete(h);
        }
        return scope[2];
    }

    private static DynamoException incomplete(String header) {
        // UNVERIFIED wording; IncompleteSignatureException is DynamoDB's documented error for this case.
        return new DynamoException(ErrorCode.INVALID_SIGNATURE,
                "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. "
                        + "Authorization=" + header);
    }
}
