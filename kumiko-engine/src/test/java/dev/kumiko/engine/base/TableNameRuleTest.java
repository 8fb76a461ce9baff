package dev.kumiko.engine.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The regex-free table-name test agrees with the rule's regex and lengths on every name tried. */
class TableNameRuleTest {
    private static final String ALPHABET = "aZ09_.-/ :#é\u0000" + "\uD83D\uDE00";
    private static final int NAMES = 20_000;
    private static final int LENGTH_MAX = 260;

    private static boolean byRegex(String name) {
        return name.length() >= Constraints.TABLE_NAME_MIN
                && name.length() <= Constraints.TABLE_NAME_MAX
                && Constraints.TABLE_NAME_PATTERN.matcher(name).matches();
    }

    @Test
    void agreesWithTheRegexOnGeneratedNames() {
        Random random = new Random(20261124L);
        int valid = 0;
        for (int i = 0; i < NAMES; i++) {
            // Mostly short names of valid characters, so that both answers occur often.
            int length = random.nextInt(10) == 0 ? random.nextInt(LENGTH_MAX) : random.nextInt(8);
            StringBuilder b = new StringBuilder(length);
            for (int j = 0; j < length; j++) {
                int k = random.nextInt(8) == 0 ? random.nextInt(ALPHABET.length()) : random.nextInt(7);
                b.append(ALPHABET.charAt(k));
            }
            String name = b.toString();
            assertThat(Constraints.isTableName(name)).as(name).isEqualTo(byRegex(name));
            valid += byRegex(name) ? 1 : 0;
        }
        assertThat(valid).isBetween(NAMES / 10, NAMES - NAMES / 10);
    }

    @Test
    void boundsAreInclusive() {
        assertThat(Constraints.isTableName("abc")).isTrue();
        assertThat(Constraints.isTableName("ab")).isFalse();
        assertThat(Constraints.isTableName("a".repeat(255))).isTrue();
        assertThat(Constraints.isTableName("a".repeat(256))).isFalse();
        assertThat(Constraints.isTableName(null)).isFalse();
    }
}
