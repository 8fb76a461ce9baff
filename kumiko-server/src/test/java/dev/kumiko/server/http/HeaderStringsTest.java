package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link HeaderStrings} answers what a new string would be, and the kept one when it may. */
class HeaderStringsTest {
    private static final int CASES = 200_000;

    @Test
    void everyAnswerIsTheTextOfItsBytes() {
        Random random = new Random(21);
        HeaderStrings strings = new HeaderStrings();
        byte[][] pool = new byte[40][];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = randomText(random, random.nextInt(i < 30 ? 40 : 400));
        }
        for (int n = 0; n < CASES; n++) {
            byte[] text = pool[random.nextInt(pool.length)];
            if (random.nextInt(4) == 0) {
                // A near miss: one byte changed, or one dropped from either end.
                text = text.clone();
                if (text.length > 0 && random.nextBoolean()) {
                    text[random.nextInt(text.length)] ^= (byte) (1 + random.nextInt(15));
                } else if (text.length > 0) {
                    text = random.nextBoolean()
                            ? java.util.Arrays.copyOf(text, text.length - 1)
                            : java.util.Arrays.copyOfRange(text, 1, text.length);
                }
            }
            int pad = random.nextInt(9);
            byte[] line = new byte[pad + text.length + random.nextInt(9)];
            random.nextBytes(line);
            System.arraycopy(text, 0, line, pad, text.length);
            assertThat(strings.of(line, pad, pad + text.length))
                    .isEqualTo(new String(text, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void repeatedBytesGiveTheSameStringAndLongOnesAreNotKept() {
        HeaderStrings strings = new HeaderStrings();
        byte[] host = "Host: 127.0.0.1:8000".getBytes(StandardCharsets.ISO_8859_1);
        String first = strings.of(host, 6, host.length);
        byte[] again = ("x" + "127.0.0.1:8000").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(strings.of(again, 1, again.length)).isSameAs(first);

        byte[] longValue = "v".repeat(HeaderStrings.LENGTH_MAX + 1).getBytes(StandardCharsets.ISO_8859_1);
        String a = strings.of(longValue, 0, longValue.length);
        assertThat(strings.of(longValue, 0, longValue.length)).isEqualTo(a).isNotSameAs(a);
        byte[] longest = "v".repeat(HeaderStrings.LENGTH_MAX).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(strings.of(longest, 0, longest.length)).isSameAs(strings.of(longest, 0, longest.length));
        assertThat(strings.of(host, 3, 3)).isEmpty();
    }

    @Test
    void twoStringsOfOneSetAreBothKept() {
        byte[] a = "value-0".getBytes(StandardCharsets.ISO_8859_1);
        byte[] b = null;
        for (int i = 1; b == null; i++) {
            byte[] candidate = ("value-" + i).getBytes(StandardCharsets.ISO_8859_1);
            if (HeaderStrings.set(candidate, 0, candidate.length) == HeaderStrings.set(a, 0, a.length)) {
                b = candidate;
            }
        }
        HeaderStrings strings = new HeaderStrings();
        String keptA = strings.of(a, 0, a.length);
        String keptB = strings.of(b, 0, b.length);
        for (int round = 0; round < 3; round++) {
            assertThat(strings.of(a, 0, a.length)).isSameAs(keptA);
            assertThat(strings.of(b, 0, b.length)).isSameAs(keptB);
        }
    }

    /** Printable ASCII and tabs, as a header line holds, with a few bytes above 0x7F for the decoding. */
    private static byte[] randomText(Random random, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            int k = random.nextInt(100);
            out[i] = (byte) (k == 0 ? '\t' : k == 1 ? 0x80 + random.nextInt(128) : ' ' + random.nextInt(95));
        }
        return out;
    }
}
