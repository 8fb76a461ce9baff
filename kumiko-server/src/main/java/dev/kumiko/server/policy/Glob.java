package dev.kumiko.server.policy;

/**
 * A policy string compiled for matching: literal characters, and the wildcards {@code *} (any run,
 * also empty) and {@code ?} (one character) where the policy element allows them. Literal and
 * wildcard are told apart out of band, so a policy variable's value or an escaped {@code ${*}}
 * never turns into a wildcard.
 */
final class Glob {
    private final char[] chars;
    private final boolean[] wildcard;

    private Glob(char[] chars, boolean[] wildcard) {
        assert chars.length == wildcard.length;
        this.chars = chars;
        this.wildcard = wildcard;
    }

    /** A pattern where every character is literal. */
    static Glob literal(String text) {
        return new Builder().literal(text).build();
    }

    /** A pattern where every {@code *} and {@code ?} is a wildcard. */
    static Glob wildcards(String text) {
        return new Builder().withWildcards(text).build();
    }

    /**
     * Greedy match with one backtrack point (the last {@code *}): linear for the patterns IAM
     * policies hold, and never recursive, so a hostile pattern cannot exhaust the stack.
     */
    boolean matches(String s, boolean ignoreCase) {
        int p = 0;
        int i = 0;
        int starP = -1;
        int starI = 0;
        while (i < s.length()) {
            if (p < chars.length && wildcard[p] && chars[p] == '*') {
                starP = p++;
                starI = i;
            } else if (p < chars.length && (wildcard[p] ? chars[p] == '?' : same(chars[p], s.charAt(i), ignoreCase))) {
                p++;
                i++;
            } else if (starP >= 0) {
                p = starP + 1;
                i = ++starI;
            } else {
                return false;
            }
        }
        while (p < chars.length && wildcard[p] && chars[p] == '*') {
            p++;
        }
        return p == chars.length;
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        if (a == b) {
            return true;
        }
        return ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < chars.length; i++) {
            sb.append(wildcard[i] ? "<" + chars[i] + ">" : String.valueOf(chars[i]));
        }
        return sb.toString();
    }

    static final class Builder {
        private final StringBuilder chars = new StringBuilder();
        private final java.util.BitSet wild = new java.util.BitSet();

        Builder literal(String text) {
            chars.append(text);
            return this;
        }

        Builder withWildcards(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '*' || c == '?') {
                    wild.set(chars.length());
                }
                chars.append(c);
            }
            return this;
        }

        Glob build() {
            char[] cs = chars.toString().toCharArray();
            boolean[] ws = new boolean[cs.length];
            for (int i = 0; i < cs.length; i++) {
                ws[i] = wild.get(i);
            }
            return new Glob(cs, ws);
        }
    }
}
