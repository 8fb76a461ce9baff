package dev.kumiko.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The canonical fast path of {@link DynamoNumber#parse} gives the number BigDecimal's parser gives:
 * the same value to the scale (so equals, hashCode and key encodings agree) and the same output
 * text, which for a text already in output form is the text itself.
 */
class DynamoNumberCanonicalTest {
    private static final String ALPHABET = "0123456789.-+eE ";

    /** DynamoNumber as parse built it before the fast path: BigDecimal's parser, then of(). */
    private static DynamoNumber reference(String text) {
        return DynamoNumber.of(new BigDecimal(text));
    }

    private static void assertSameAsReference(String text, DynamoNumber fast) {
        DynamoNumber slow = reference(text);
        assertThat(fast.value()).as(text).isEqualTo(slow.value()); // BigDecimal.equals: value and scale
        assertThat(fast.toString()).as(text).isEqualTo(slow.toString());
        assertThat(fast.hashCode()).as(text).isEqualTo(slow.hashCode());
    }

    @Test
    void knownTexts() {
        for (String canonical : new String[] {
            "0",
            "7",
            "-7",
            "10",
            "1000",
            "0.5",
            "-0.5",
            "0.05",
            "12.34",
            "-12.34",
            "999999999999999999",
            "0.00000000000000001",
            "-100.25"
        }) {
            DynamoNumber fast = DynamoNumber.parseCanonical(canonical);
            assertThat(fast).as(canonical).isNotNull();
            assertSameAsReference(canonical, fast);
            if (!canonical.equals("0")) { // zero is the one shared ZERO
                assertThat(fast.toString()).as(canonical).isSameAs(canonical); // kept, not printed again
            }
        }
        String[][] cut = {
            {"1.50", "1.5"},
            {"12.500", "12.5"},
            {"3.00", "3"},
            {"-3.0", "-3"},
            {"10.0", "10"},
            {"100.000", "100"},
            {"0.50", "0.5"},
            {"-0.050", "-0.05"},
            {"0.0", "0"},
            {"-0", "0"},
            {"-0.00", "0"}
        };
        for (String[] c : cut) {
            DynamoNumber fast = DynamoNumber.parseCanonical(c[0]);
            assertThat(fast).as(c[0]).isNotNull();
            assertSameAsReference(c[0], fast);
            assertThat(fast.toString()).as(c[0]).isEqualTo(c[1]);
        }
        for (String other : new String[] {
            "",
            "-",
            ".",
            ".5",
            "-.5",
            "1.",
            "00",
            "007",
            "-01.5",
            "00.5",
            "+1",
            "1e5",
            "1E5",
            " 1",
            "1 ",
            "1.2.3",
            "--1",
            "1-",
            "1000000000000000000",
            "0.000000000000000001",
            "1.0000000000000000000"
        }) {
            assertThat(DynamoNumber.parseCanonical(other)).as(other).isNull();
        }
    }

    @Test
    void randomTextsGiveTheReferenceNumberOrAreLeftToIt() {
        Random random = new Random(20261127);
        int fastHits = 0;
        for (int i = 0; i < 200_000; i++) {
            String text = randomText(random);
            DynamoNumber fast = DynamoNumber.parseCanonical(text);
            if (fast != null) {
                fastHits++;
                assertSameAsReference(text, fast);
            }
        }
        assertThat(fastHits).as("random texts in canonical form").isGreaterThan(10_000);
    }

    /** Mostly number-like texts: digits with a sign, a point or other characters sprinkled in. */
    private static String randomText(Random random) {
        StringBuilder b = new StringBuilder();
        if (random.nextInt(4) == 0) {
            b.append('-');
        }
        int length = 1 + random.nextInt(22);
        for (int i = 0; i < length; i++) {
            int r = random.nextInt(40);
            b.append(r < 36 ? (char) ('0' + r % 10) : ALPHABET.charAt(10 + random.nextInt(ALPHABET.length() - 10)));
        }
        return b.toString();
    }
}
