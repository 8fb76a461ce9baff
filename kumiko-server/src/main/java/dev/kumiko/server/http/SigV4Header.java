package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import org.jspecify.annotations.Nullable;

/**
 * Reads the parts of an {@code Authorization: AWS4-HMAC-SHA256 Credential=AKID/date/region/service/
 * aws4_request, SignedHeaders=..., Signature=...} header that routing needs: the region. The
 * signature itself is not verified here (that is the --auth=sigv4 mode's job).
 */
public final class SigV4Header {
    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    /** AKID, date, region, service, terminator. */
    private static final int SCOPE_PARTS = 5;

    private static final String TERMINATOR = "aws4_request";

    private SigV4Header() {}

    /** The credential scope's region; throws DynamoDB's errors for a missing or malformed header. */
    public static String region(@Nullable String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw new DynamoException(
                    ErrorCode.MISSING_AUTHENTICATION_TOKEN, "Request is missing Authentication Token");
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
        String region = scopeRegion(h, start, end);
        if (region == null) {
            throw incomplete(h);
        }
        return region;
    }

    /**
     * The region of the credential scope AKID/date/region/service/aws4_request in h[start, end), or
     * null if that is not such a scope or its region is empty. Trailing slashes are ignored, as
     * String.split ignored them when this was a split. Read in place: it runs on every request.
     */
    static @Nullable String scopeRegion(String h, int start, int end) {
        while (end > start && h.charAt(end - 1) == '/') {
            end--;
        }
        int[] slashes = new int[SCOPE_PARTS - 1];
        int found = 0;
        for (int i = start; i < end; i++) {
            if (h.charAt(i) == '/') {
                if (found == slashes.length) {
                    return null;
                }
                slashes[found++] = i;
            }
        }
        if (found != slashes.length || slashes[2] - slashes[1] == 1) {
            return null;
        }
        int terminator = slashes[3] + 1;
        if (end - terminator != TERMINATOR.length() || !h.startsWith(TERMINATOR, terminator)) {
            return null;
        }
        return h.substring(slashes[1] + 1, slashes[2]);
    }

    private static DynamoException incomplete(String header) {
        // UNVERIFIED wording; IncompleteSignatureException is DynamoDB's documented error for this case.
        return new DynamoException(
                ErrorCode.INVALID_SIGNATURE,
                "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. "
                        + "Authorization=" + header);
    }
}
