package dev.kumiko.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The pure parts of AWS Signature Version 4 as the General Reference specifies them: the canonical
 * request, the string to sign, the signing key and the signature. No I/O, no clock; the verifier
 * supplies what the request carried.
 */
public final class SigV4Signing {
    public static final String ALGORITHM = "AWS4-HMAC-SHA256";
    public static final String TERMINATOR = "aws4_request";
    private static final String HMAC = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private SigV4Signing() {}

    /**
     * The canonical URI: each path segment URI-encoded once more, as every service except S3 expects
     * (the path on the wire is already encoded once, and the SDKs sign it encoded twice).
     */
    public static String canonicalUri(String rawPath) {
        if (rawPath.isEmpty()) {
            return "/";
        }
        StringBuilder out = new StringBuilder(rawPath.length() + 8);
        int start = 0;
        while (true) {
            int slash = rawPath.indexOf('/', start);
            int end = slash < 0 ? rawPath.length() : slash;
            uriEncode(rawPath.substring(start, end), out);
            if (slash < 0) {
                return out.toString();
            }
            out.append('/');
            start = slash + 1;
        }
    }

    /** The canonical query string: names and values decoded, re-encoded strictly, sorted by name then value. */
    public static String canonicalQuery(@Nullable String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<String[]> pairs = new ArrayList<>();
        for (String part : rawQuery.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            String value = eq < 0 ? "" : part.substring(eq + 1);
            pairs.add(new String[] {encode(percentDecode(name)), encode(percentDecode(value))});
        }
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        StringBuilder out = new StringBuilder();
        for (String[] p : pairs) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(p[0]).append('=').append(p[1]);
        }
        return out.toString();
    }

    /**
     * The canonical headers block, one "name:value\n" line per signed header in the given (sorted,
     * lower-case) order. Several values of one header are joined by commas; each value is trimmed and
     * its runs of spaces collapsed to one.
     */
    public static String canonicalHeaders(List<String> signedHeaders, Function<String, List<String>> valuesOf) {
        StringBuilder out = new StringBuilder(256);
        for (String name : signedHeaders) {
            out.append(name).append(':');
            List<String> values = valuesOf.apply(name);
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(collapseSpaces(values.get(i)));
            }
            out.append('\n');
        }
        return out.toString();
    }

    public static String canonicalRequest(
            String method,
            String canonicalUri,
            String canonicalQuery,
            String canonicalHeaders,
            String signedHeaders,
            String payloadSha256Hex) {
        return method
                + '\n'
                + canonicalUri
                + '\n'
                + canonicalQuery
                + '\n'
                + canonicalHeaders
                + '\n'
                + signedHeaders
                + '\n'
                + payloadSha256Hex;
    }

    /** {@code scope} is "date/region/service/aws4_request"; {@code amzDate} the basic ISO-8601 time stamp. */
    public static String stringToSign(String amzDate, String scope, String canonicalRequest) {
        return ALGORITHM
                + '\n'
                + amzDate
                + '\n'
                + scope
                + '\n'
                + sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] signingKey(String secretAccessKey, String date, String region, String service) {
        byte[] kDate = hmac(("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8), date);
        byte[] kRegion = hmac(kDate, region);
        byte[] kService = hmac(kRegion, service);
        return hmac(kService, TERMINATOR);
    }

    /** The signature as lower-case hex, as it appears in the Authorization header. */
    public static String signature(byte[] signingKey, String stringToSign) {
        return HEX.formatHex(hmac(signingKey, stringToSign));
    }

    public static String sha256Hex(byte[] bytes) {
        return HEX.formatHex(sha256().digest(bytes));
    }

    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new AssertionError("every JDK has HmacSHA256", e);
        }
    }

    static String collapseSpaces(String value) {
        String t = value.strip();
        if (t.indexOf("  ") < 0) {
            return t;
        }
        StringBuilder out = new StringBuilder(t.length());
        boolean space = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == ' ') {
                if (!space) {
                    out.append(c);
                }
                space = true;
            } else {
                out.append(c);
                space = false;
            }
        }
        return out.toString();
    }

    /** SigV4's URI encoding: every byte except A-Z a-z 0-9 - _ . ~ as %XX with upper-case hex. */
    static String encode(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        uriEncode(s, out);
        return out.toString();
    }

    private static void uriEncode(String s, StringBuilder out) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
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
    }

    /** Decodes %XX escapes (and '+' as itself: SigV4 clients encode a space as %20). Bad escapes stay literal. */
    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[in.length];
        int n = 0;
        for (int i = 0; i < in.length; i++) {
            int hi = i + 2 < in.length && in[i] == '%' ? Character.digit(in[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(in[i + 2], 16) : -1;
            if (lo >= 0) {
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = in[i];
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }
}
