package dev.kumiko.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The placeholder key check of ExpressionAttributeNames and ExpressionAttributeValues accepts
 * exactly what the pattern sigil + [A-Za-z0-9_]+ accepts.
 */
class PlaceholderSyntaxTest {
    private static final String ALPHABET = "#:aZz09_ -.é$\t";

    @Test
    void knownKeys() {
        for (String ok : new String[] {"#a", "#A_1", "#_", "#0", ":v", ":value_1", ":9"}) {
            assertThat(RequestExpressions.Builder.isPlaceholder(ok, ok.charAt(0)))
                    .as(ok)
                    .isTrue();
        }
        for (String bad : new String[] {"", "#", ":", "a", "#a b", "#a-b", "#é", ":v.1", "#:a", ":#a", "##a", " #a"}) {
            char sigil = bad.startsWith(":") ? ':' : '#';
            assertThat(RequestExpressions.Builder.isPlaceholder(bad, sigil))
                    .as(bad)
                    .isFalse();
        }
        assertThat(RequestExpressions.Builder.isPlaceholder(":v", '#')).isFalse();
    }

    @Test
    void randomKeysAgreeWithThePattern() {
        Pattern names = Pattern.compile("#[A-Za-z0-9_]+");
        Pattern values = Pattern.compile(":[A-Za-z0-9_]+");
        Random random = new Random(20261127);
        int accepted = 0;
        for (int i = 0; i < 100_000; i++) {
            StringBuilder b = new StringBuilder();
            int length = random.nextInt(6);
            for (int j = 0; j < length; j++) {
                b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String key = b.toString();
            boolean name = RequestExpressions.Builder.isPlaceholder(key, '#');
            boolean value = RequestExpressions.Builder.isPlaceholder(key, ':');
            assertThat(name).as(key).isEqualTo(names.matcher(key).matches());
            assertThat(value).as(key).isEqualTo(values.matcher(key).matches());
            accepted += name || value ? 1 : 0;
        }
        assertThat(accepted).as("random keys that are placeholders").isGreaterThan(1_000);
    }
}
