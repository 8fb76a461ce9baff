package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure SigV4 steps against the worked example of the AWS General Reference (IAM ListUsers, 2015-08-30). */
class SigV4SigningTest {
    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void theGeneralReferenceExampleSignsAsDocumented() {
        Map<String, List<String>> headers = Map.of(
                "content-type", List.of("application/x-www-form-urlencoded; charset=utf-8"),
                "host", List.of("iam.amazonaws.com"),
                "x-amz-date", List.of("20150830T123600Z"));
        List<String> signed = List.of("content-type", "host", "x-amz-date");
        String canonical = SigV4Signing.canonicalRequest(
                "GET",
                SigV4Signing.canonicalUri("/"),
                SigV4Signing.canonicalQuery("Version=2010-05-08&Action=ListUsers"),
                SigV4Signing.canonicalHeaders(signed, headers::get),
                "content-type;host;x-amz-date",
                SigV4Signing.sha256Hex(new byte[0]));
        assertThat(canonical)
                .isEqualTo("GET\n/\nAction=ListUsers&Version=2010-05-08\n"
                        + "content-type:application/x-www-form-urlencoded; charset=utf-8\nhost:iam.amazonaws.com\n"
                        + "x-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date\n" + EMPTY_SHA256);
        assertThat(SigV4Signing.sha256Hex(canonical.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59");
        byte[] key = SigV4Signing.signingKey(SECRET, "20150830", "us-east-1", "iam");
        assertThat(SigV4Signing.hex(key)).isEqualTo("c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");
        String toSign = SigV4Signing.stringToSign("20150830T123600Z", "20150830/us-east-1/iam/aws4_request", canonical);
        assertThat(SigV4Signing.signature(key, toSign))
                .isEqualTo("5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
    }

    @Test
    void pathSegmentsAreEncodedOnceMoreAndSlashesKept() {
        assertThat(SigV4Signing.canonicalUri("")).isEqualTo("/");
        assertThat(SigV4Signing.canonicalUri("/")).isEqualTo("/");
        assertThat(SigV4Signing.canonicalUri("/a b/%2F~x")).isEqualTo("/a%20b/%252F~x");
    }

    @Test
    void queryParametersAreDecodedReEncodedAndSorted() {
        assertThat(SigV4Signing.canonicalQuery("b=2&a=z&a=y&c&sp=a%20b&plus=a+b&star=*"))
                .isEqualTo("a=y&a=z&b=2&c=&plus=a%2Bb&sp=a%20b&star=%2A");
        assertThat(SigV4Signing.canonicalQuery(null)).isEmpty();
    }

    @Test
    void headerValuesAreTrimmedAndSpaceRunsCollapsed() {
        assertThat(SigV4Signing.collapseSpaces("  a   b c  ")).isEqualTo("a b c");
        assertThat(SigV4Signing.canonicalHeaders(List.of("x-multi"), name -> List.of(" 1 ", "2  3")))
                .isEqualTo("x-multi:1,2 3\n");
    }
}
