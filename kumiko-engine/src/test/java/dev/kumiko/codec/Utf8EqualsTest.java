package dev.kumiko.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored name or string is compared with a wanted one in place ({@link ItemReader#utf8Equals}),
 * which must answer exactly as decoding the bytes and comparing the strings does: for ASCII and
 * other text, surrogate pairs, lone surrogates (which UTF-8 cannot hold), and malformed bytes.
 */
class Utf8EqualsTest {
    private static final int CASES = 200_000;
    private static final int LENGTH_MAX = 12;
    /** What the strings are built from: ASCII, two- and three-byte characters, both surrogate halves. */
    private static final char[] ALPHABET = {
        'a', 'b', 'Z', '0', '#', 0x7F, 0x80, 'é', 0x7FF, 0x800, '日', 0xFFFD, 0xD83D, 0xDE00
    };

    private final Random random = new Random(20261202);

    @Test
    void answersAsDecodingTheBytesDoes() {
        for (int i = 0; i < CASES; i++) {
            String wanted = text();
            byte[] slice = slice(wanted);
            int start = random.nextInt(3);
            byte[] buf = new byte[start + slice.length + random.nextInt(3)];
            Arrays.fill(buf, (byte) 'a');
            System.arraycopy(slice, 0, buf, start, slice.length);
            boolean expected = new String(buf, start, slice.length, StandardCharsets.UTF_8).equals(wanted);
            assertThat(ItemReader.utf8Equals(buf, start, slice.length, wanted))
                    .as("%s against %s", wanted, Arrays.toString(slice))
                    .isEqualTo(expected);
        }
    }

    /** Equal names must be found, also where a byte-for-byte comparison alone would miss them. */
    @Test
    void findsEqualText() {
        for (String s : new String[] {"", "qty", "GSI1PK", "prix€", "日本", "😀x", "a😀"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            assertThat(ItemReader.utf8Equals(b, 0, b.length, s)).as(s).isTrue();
            assertThat(ItemReader.utf8Equals(b, 0, b.length, s + "x")).as(s).isFalse();
        }
        byte[] malformed = {(byte) 0xC3};
        assertThat(ItemReader.utf8Equals(malformed, 0, 1, "\uFFFD")).isTrue();
    }

    private String text() {
        StringBuilder b = new StringBuilder();
        int n = random.nextInt(LENGTH_MAX);
        for (int i = 0; i < n; i++) {
            b.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return b.toString();
    }

    /** The wanted text's bytes, another text's, or the wanted bytes with one changed, cut or grown. */
    private byte[] slice(String wanted) {
        byte[] own = wanted.getBytes(StandardCharsets.UTF_8);
        switch (random.nextInt(5)) {
            case 0:
                return own;
            case 1:
                return text().getBytes(StandardCharsets.UTF_8);
            case 2:
                if (own.length > 0) {
                    own[random.nextInt(own.length)] = (byte) random.nextInt(256);
                }
                return own;
            case 3:
                return Arrays.copyOf(own, Math.max(0, own.length - 1 - random.nextInt(2)));
            default:
                byte[] grown = Arrays.copyOf(own, own.length + 1 + random.nextInt(3));
                for (int i = own.length; i < grown.length; i++) {
                    grown[i] = (byte) random.nextInt(256);
                }
                return grown;
        }
    }
}
