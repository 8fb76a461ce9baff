package dev.kumiko.server.http;

import java.util.concurrent.ThreadLocalRandom;

/** Request ids shaped like DynamoDB's: 52 upper-case letters and digits. */
final class RequestIds {
    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final int LENGTH = 52;

    private RequestIds() {}

    static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        char[] id = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            id[i] = ALPHABET[r.nextInt(ALPHABET.length)];
        }
        return new String(id);
    }
}
