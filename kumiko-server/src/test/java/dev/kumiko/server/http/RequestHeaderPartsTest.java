package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Request ids and the region read from a SigV4 credential scope, as leaves (no server needed). */
class RequestHeaderPartsTest {

    @Test
    void requestIdsAre52UpperCaseLettersAndDigitsAndDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        Set<Character> used = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            String id = RequestIds.next();
            assertThat(id).hasSize(RequestIds.LENGTH).matches("[A-Z0-9]+");
            assertThat(seen.add(id)).as("unique: " + id).isTrue();
            id.chars().forEach(c -> used.add((char) c));
        }
        assertThat(used).as("every letter and digit appears").hasSize(36);
    }

    @Test
    void theRegionIsTheScopesThirdPart() {
        assertThat(region("AKID/20260101/eu-west-1/dynamodb/aws4_request")).isEqualTo("eu-west-1");
        assertThat(region("/20260101/us-east-1/dynamodb/aws4_request")).isEqualTo("us-east-1");
        assertThat(region("AKID/20260101/local/dynamodb/aws4_request//")).isEqualTo("local");
    }

    @Test
    void aScopeOfAnotherShapeHasNoRegion() {
        assertThat(region("AKID/20260101//dynamodb/aws4_request")).isNull();
        assertThat(region("AKID/20260101/us-east-1/dynamodb")).isNull();
        assertThat(region("AKID/20260101/us-east-1/dynamodb/aws4_requesx")).isNull();
        assertThat(region("AKID/20260101/us-east-1/dynamodb/aws4_request2")).isNull();
        assertThat(region("AKID/x/20260101/us-east-1/dynamodb/aws4_request")).isNull();
        assertThat(region("")).isNull();
    }

    /** The in-place reading agrees with the split it replaced, on generated scopes. */
    @Test
    void agreesWithSplittingOnSlashes() {
        Random random = new Random(7);
        String[] pieces = {"", "/", "//", "a", "us-east-1", "aws4_request", "x/y"};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder scope = new StringBuilder();
            int n = random.nextInt(8);
            for (int j = 0; j < n; j++) {
                scope.append(pieces[random.nextInt(pieces.length)]);
            }
            String s = scope.toString();
            String[] parts = s.split("/");
            String expected =
                    parts.length != 5 || parts[2].isEmpty() || !"aws4_request".equals(parts[4]) ? null : parts[2];
            assertThat(region(s)).as(s).isEqualTo(expected);
        }
    }

    private static String region(String scope) {
        String h = "Credential=" + scope + ",";
        return SigV4Header.scopeRegion(h, "Credential=".length(), h.length() - 1);
    }
}
