package dev.kumiko.model;

/** UTF-8 lengths without allocating the encoded bytes. */
public final class Utf8 {
    private Utf8() {}

    /** Bytes of the UTF-8 encoding of s; an unpaired surrogate counts as the 3-byte U+FFFD... as Java encodes '?', 1 byte. */
    public static int length(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2; // 4 bytes for the pair, 2 chars already counted
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 0; // String.getBytes(UTF_8) writes '?' for an unpaired surrogate
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }
}
