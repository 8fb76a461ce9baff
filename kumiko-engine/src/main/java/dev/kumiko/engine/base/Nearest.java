package dev.kumiko.engine.base;

import java.util.Collection;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The known name nearest to a mistyped one, for a "did you mean" hint in the command line's and the model
 * file's errors: by edit distance, ignoring case, so {@code maxRCU} finds {@code maxRcu} and {@code --prot}
 * finds {@code --port}; or the one name that starts with what was typed ({@code --data} for
 * {@code --data-dir}). A name too far from every candidate gets no hint, since a wrong hint costs more
 * than none. Here, in the engine's base, because the CLI of every module (the server's, the Ignite
 * launcher's) uses it and the engine is what they all depend on.
 */
public final class Nearest {
    /** Names longer than this are not compared: the distance table is quadratic in their lengths. */
    static final int NAME_CHARS_MAX = 200;
    /** "--d" could be anything; "--dat" says enough to extend. */
    static final int PREFIX_CHARS_MIN = 5;

    private Nearest() {}

    /** The candidate nearest to {@code typed}, or null when none is close enough. */
    public static @Nullable String of(String typed, Collection<String> candidates) {
        if (typed == null || typed.length() > NAME_CHARS_MAX) {
            return null;
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            if (c.length() > NAME_CHARS_MAX) {
                continue;
            }
            int d = distance(typed.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        if (best != null && bestDistance <= allowed(typed)) {
            return best;
        }
        return onlyExtension(typed, candidates);
    }

    /** The one candidate that starts with a typed text of at least PREFIX_CHARS_MIN characters, or null. */
    private static @Nullable String onlyExtension(String typed, Collection<String> candidates) {
        if (typed.length() < PREFIX_CHARS_MIN) {
            return null;
        }
        String found = null;
        for (String c : candidates) {
            if (c.toLowerCase(Locale.ROOT).startsWith(typed.toLowerCase(Locale.ROOT))) {
                if (found != null) {
                    return null;
                }
                found = c;
            }
        }
        return found;
    }

    /** " (did you mean "x"?)", or "" when there is no near name. */
    public static String hint(String typed, Collection<String> candidates) {
        String near = of(typed, candidates);
        return near == null ? "" : " (did you mean \"" + near + "\"?)";
    }

    /** A third of the name's length, at least 1 and at most 3: "prot" may be off by 1, "maxItemsRaed" by 3. */
    static int allowed(String typed) {
        return Math.max(1, Math.min(3, typed.length() / 3));
    }

    /** Levenshtein distance with adjacent transpositions counted as one edit (a common typo). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
