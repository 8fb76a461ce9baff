package dev.kumiko.storage;

import java.util.Arrays;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/** Unsigned lexicographic order on byte arrays, the order of every store's key space. */
public final class Bytes {
    /** A class, not a method reference: it is used at every store's open (see Clock.SYSTEM). */
    public static final Comparator<byte[]> ORDER = new Comparator<>() {
        @Override
        public int compare(byte[] a, byte[] b) {
            return Arrays.compareUnsigned(a, b);
        }
    };

    private Bytes() {}

    /** The smallest key greater than every key starting with prefix, or null if none exists. */
    public static byte @Nullable [] prefixEnd(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && prefix[i] == (byte) 0xFF) {
            i--;
        }
        if (i < 0) {
            return null;
        }
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
