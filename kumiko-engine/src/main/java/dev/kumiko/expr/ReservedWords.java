package dev.kumiko.expr;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * DynamoDB's reserved words (Developer Guide, "Reserved words in DynamoDB"), kept in the resource
 * file reserved-words.txt so the list can be diffed against the page. Matching is case-insensitive.
 */
public final class ReservedWords {
    private static final Set<String> WORDS = load();

    private ReservedWords() {}

    public static boolean isReserved(String word) {
        return WORDS.contains(word.toUpperCase(Locale.ROOT));
    }

    static int count() {
        return WORDS.size();
    }

    private static Set<String> load() {
        InputStream in = ReservedWords.class.getResourceAsStream("reserved-words.txt");
        if (in == null) {
            throw new IllegalStateException("reserved-words.txt missing from the classpath");
        }
        Set<String> words = new HashSet<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                line = line.trim();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    words.add(line.toUpperCase(Locale.ROOT));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(words);
    }
}
