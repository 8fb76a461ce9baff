package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The eight-byte test agrees with a byte-by-byte one, on every single byte and on random words. */
class PrintableAsciiTest {
    private static boolean allByBytes(long word) {
        for (int i = 0; i < Long.BYTES; i++) {
            int b = (int) (word >>> (8 * i)) & 0xFF;
            if (b < 0x20 || b > 0x7E) {
                return false;
            }
        }
        return true;
    }

    @Test
    void everyByteValueInEveryPosition() {
        long printable = 0x4141414141414141L; // "AAAAAAAA"
        for (int position = 0; position < Long.BYTES; position++) {
            for (int b = 0; b < 256; b++) {
                long word = (printable & ~(0xFFL << (8 * position))) | ((long) b << (8 * position));
                assertThat(PrintableAscii.all(word))
                        .as("byte %02x at %d", b, position)
                        .isEqualTo(allByBytes(word));
            }
        }
    }

    @Test
    void randomWordsNearTheEdges() {
        int[] edges = {0x00, 0x09, 0x0D, 0x1F, 0x20, 0x21, 0x7D, 0x7E, 0x7F, 0x80, 0xA0, 0xFE, 0xFF};
        Random random = new Random(20261127);
        int printable = 0;
        for (int i = 0; i < 1_000_000; i++) {
            long word = 0;
            for (int j = 0; j < Long.BYTES; j++) {
                int b = random.nextInt(4) == 0 ? edges[random.nextInt(edges.length)] : 0x20 + random.nextInt(0x5F);
                word |= (long) b << (8 * j);
            }
            boolean expected = allByBytes(word);
            assertThat(PrintableAscii.all(word)).as("%016x", word).isEqualTo(expected);
            printable += expected ? 1 : 0;
        }
        assertThat(printable).as("words that are all printable").isGreaterThan(10_000);
    }
}
