package dev.kumiko.engine.streams;

/**
 * Stream sequence numbers on the wire: 21 decimal digits, "1" followed by the change log number
 * zero-padded to 20 digits. DynamoDB's are 21 to 40 digits (API Reference, StreamRecord); a fixed
 * width keeps string order, numeric order and change log order the same.
 */
public final class SequenceNumbers {
    static final int DIGITS = 21;
    private static final String PREFIX = "1";

    private SequenceNumbers() {}

    public static String format(long sequence) {
        assert sequence >= 0;
        return PREFIX + String.format("%020d", sequence);
    }

    /** The change log number of a wire sequence number, or -1 if it is not one Kumiko gave. */
    public static long parse(String s) {
        if (s == null || s.length() != DIGITS || !s.startsWith(PREFIX)) {
            return -1;
        }
        for (int i = 0; i < DIGITS; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(s.substring(1));
        } catch (NumberFormatException e) { // 20 digits can exceed a long
            return -1;
        }
    }
}
