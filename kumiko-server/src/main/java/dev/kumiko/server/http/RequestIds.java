package dev.kumiko.server.http;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/** Request ids shaped like DynamoDB's: 52 upper-case letters and digits. */
final class RequestIds {
    static final int LENGTH = 52;
    private static final byte[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".getBytes(StandardCharsets.US_ASCII);
    /** Base-36 digits cut from one random 63-bit number: 36^12 < 2^63. */
    private static final int DIGITS_PER_LONG = 12;

    private RequestIds() {}

    /**
     * Every request gets one, so it is cut from five random longs rather than 52 bounded draws
     * (which were about 2 % of a GetItem's server CPU). The twelfth digit cut from each long is
     * half as likely to be '9' as any other character (2^63 holds 36^12 only about 1.95 times):
     * an id needs to be unique, not uniform.
     */
    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] id = new byte[LENGTH];
        long bits = 0;
        for (int i = 0; i < LENGTH; i++) {
            if (i % DIGITS_PER_LONG == 0) {
                bits = random.nextLong() >>> 1;
            }
            id[i] = ALPHABET[(int) (bits % ALPHABET.length)];
            bits /= ALPHABET.length;
        }
        return new String(id, StandardCharsets.US_ASCII);
    }
}
