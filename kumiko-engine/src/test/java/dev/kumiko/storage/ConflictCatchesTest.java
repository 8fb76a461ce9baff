package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only {@link ReadModifyWrite} retries a store conflict. Every other catch of
 * StoreConflictException in the engine is a single attempt that says why it is not retried; a new
 * catch fails this test, so that its author either hands the cycle to the runner or adds it here
 * with its reason (docs/architecture.md, "Retrying a conflict").
 */
class ConflictCatchesTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern CATCH = Pattern.compile("catch \\((?:[\\w.]+ \\| )*StoreConflictException\\b");

    /** File name, and how many catches it has: the runner's own and the single attempts. */
    private static final Map<String, Integer> ALLOWED = Map.of(
            "ReadModifyWrite.java", 2,
            // DynamoDB cancels a transaction that meets another; the client decides to run it again.
            "TransactWriteOperation.java", 1,
            // A token in use is looked at again by the next cleanup.
            "ClientTokens.java", 1,
            // An item held or raced for is left to the next pass.
            "TimeToLiveSweeper.java", 1,
            // Another engine holds or takes the lease; release at close must not wait.
            "Lease.java", 2);

    @Test
    void noCodeButTheRunnerRetriesAConflict() throws IOException {
        assertThat(catchesByFile()).isEqualTo(new TreeMap<>(ALLOWED));
    }

    private static Map<String, Integer> catchesByFile() throws IOException {
        Map<String, Integer> out = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(SOURCES)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).toList();
        }
        for (Path p : files) {
            Matcher m = CATCH.matcher(Files.readString(p));
            int n = 0;
            while (m.find()) {
                n++;
            }
            if (n > 0) {
                out.put(p.getFileName().toString(), n);
            }
        }
        return out;
    }
}
