package dev.kumiko.server.http;

/**
 * Eight bytes tested at once for printable ASCII (0x20 to 0x7E), the bytes of a header value
 * other than its tabs: a pure function of one long, so that a header scan can skip a run of them
 * per word instead of per byte.
 */
final class PrintableAscii {
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private PrintableAscii() {}

    /**
     * Whether every byte of word is in [0x20, 0x7E]. A byte at or above 0x7F shows as a high bit
     * of word + 1 or of word itself. Once there is none, every byte is below 0x80, and word - 0x20
     * per byte sets a high bit that word lacks if and only if some byte is below 0x20 (a borrow
     * can mark a higher byte too, but only behind a lower one that is below).
     */
    static boolean all(long word) {
        long atOrAbove7F = ((word + ONES) | word) & HIGH_BITS;
        long below20 = (word - ONES * 0x20) & ~word & HIGH_BITS;
        return (atOrAbove7F | below20) == 0;
    }
}
