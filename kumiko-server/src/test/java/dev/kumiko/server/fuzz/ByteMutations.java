package dev.kumiko.server.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Byte-level mutations of an input, in the manner of coverage-less fuzzers: flips, inserts of
 * tokens that matter to a JSON or expression parser, deletions, truncation, duplication, splicing
 * with another input, invalid UTF-8. Pure functions of (random, input).
 */
final class ByteMutations {
    /** Bytes that change a parser's state, and byte sequences that are not valid UTF-8. */
    private static final List<byte[]> TOKENS = List.of(
            b("{"),
            b("}"),
            b("["),
            b("]"),
            b("\""),
            b(":"),
            b(","),
            b("\\"),
            b("\\u"),
            b("\\ud800"),
            b("\\u0000"),
            b("null"),
            b("true"),
            b("false"),
            b("-0"),
            b("1e999999999"),
            b("-1e-999999"),
            b("0x10"),
            b("NaN"),
            b("Infinity"),
            b("9".repeat(400)),
            b(" "),
            b("\t\n"),
            b("/*"),
            b("//"),
            new byte[] {(byte) 0xC0, (byte) 0x80},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {0},
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
    /** How many mutations one case stacks: mostly one or two, sometimes many. */
    private static final int STACKED_MAX = 8;

    private ByteMutations() {}

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One to a few stacked mutations of input; other is a second input to splice from. */
    static byte[] mutate(SplittableRandom r, byte[] input, byte[] other) {
        int n = r.nextInt(4) == 0 ? 1 + r.nextInt(STACKED_MAX) : 1 + r.nextInt(2);
        byte[] out = input;
        for (int i = 0; i < n; i++) {
            out = mutateOnce(r, out, other);
        }
        return out;
    }

    static byte[] mutateOnce(SplittableRandom r, byte[] in, byte[] other) {
        if (in.length == 0) {
            return token(r);
        }
        int at = r.nextInt(in.length);
        switch (r.nextInt(9)) {
            case 0:
                return flip(in, at, r.nextInt(8));
            case 1:
                return insert(in, at, token(r));
            case 2:
                return delete(in, at, 1 + r.nextInt(Math.min(16, in.length - at)));
            case 3:
                return Arrays.copyOf(in, at);
            case 4:
                return insert(in, at, new byte[] {(byte) r.nextInt(256)});
            case 5:
                return replace(in, at, token(r));
            case 6:
                return insert(in, at, slice(r, in));
            case 7:
                return splice(in, at, other, other.length == 0 ? 0 : r.nextInt(other.length));
            default:
                return insert(in, at, repeat(token(r), 1 + r.nextInt(300)));
        }
    }

    private static byte[] token(SplittableRandom r) {
        return TOKENS.get(r.nextInt(TOKENS.size()));
    }

    private static byte[] flip(byte[] in, int at, int bit) {
        byte[] out = in.clone();
        out[at] ^= (byte) (1 << bit);
        return out;
    }

    static byte[] insert(byte[] in, int at, byte[] what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + what.length);
        out.write(in, 0, at);
        out.write(what, 0, what.length);
        out.write(in, at, in.length - at);
        return out.toByteArray();
    }

    private static byte[] delete(byte[] in, int at, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        out.write(in, 0, at);
        out.write(in, at + length, in.length - at - length);
        return out.toByteArray();
    }

    private static byte[] replace(byte[] in, int at, byte[] what) {
        return insert(delete(in, at, Math.min(what.length, in.length - at)), at, what);
    }

    private static byte[] slice(SplittableRandom r, byte[] in) {
        int from = r.nextInt(in.length);
        int to = from + r.nextInt(Math.min(64, in.length - from) + 1);
        return Arrays.copyOfRange(in, from, to);
    }

    /** The head of in up to at, then the tail of other from its position from. */
    private static byte[] splice(byte[] in, int at, byte[] other, int from) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(at + other.length - from);
        out.write(in, 0, at);
        out.write(other, from, other.length - from);
        return out.toByteArray();
    }

    static byte[] repeat(byte[] what, int times) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(what.length * times);
        for (int i = 0; i < times; i++) {
            out.write(what, 0, what.length);
        }
        return out.toByteArray();
    }
}
