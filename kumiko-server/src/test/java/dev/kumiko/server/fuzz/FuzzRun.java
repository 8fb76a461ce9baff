package dev.kumiko.server.fuzz;

import dev.kumiko.error.DynamoException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One bounded fuzzing pass over one target: a fixed seed and a fixed number of cases, so CI runs
 * the same cases every time and a failure names the case index that reproduces it. A failing input
 * is written to target/fuzz-crashers/&lt;target&gt;/ so it can be copied into the corpus as a
 * regression case; the count of cases tried goes to target/fuzz-counts/&lt;target&gt;.txt.
 */
final class FuzzRun {
    /** Enough failures to see a pattern; more would only flood the report. */
    private static final int FAILURES_REPORTED_MAX = 5;

    private static final Path OUT = Path.of("target");

    /**
     * Cases per target are the CI budget times this factor (-Dkumiko.fuzz.scale=10 for a longer
     * local pass); the seed can be moved with -Dkumiko.fuzz.seed=N to explore other cases.
     */
    static int cases(int ciBudget) {
        return ciBudget * Integer.getInteger("kumiko.fuzz.scale", 1);
    }

    static long seed(long ciSeed) {
        return Long.getLong("kumiko.fuzz.seed", ciSeed);
    }

    interface Target {
        void run(byte[] input) throws Exception;
    }

    record Failure(int index, byte[] input, Throwable error) {}

    private final String target;
    private final long seed;
    private final List<Failure> failures = new ArrayList<>();
    private int casesTried;
    private int casesAccepted;

    FuzzRun(String target, long seed) {
        this.target = target;
        this.seed = seed(seed);
    }

    /** The random source of case i: independent of every other case, so any case replays alone. */
    SplittableRandom random(int index) {
        return new SplittableRandom(seed * 1_000_003L + index);
    }

    /** Runs one case; only success or a DynamoDB client error (4xx) counts as correct. */
    void check(int index, byte[] input, Target t) {
        casesTried++;
        try {
            t.run(input);
            casesAccepted++;
        } catch (DynamoException e) {
            if (dev.kumiko.server.http.ErrorStatuses.of(e.code()) >= 500) {
                failures.add(new Failure(index, input, e));
            }
        } catch (Throwable e) {
            failures.add(new Failure(index, input, e));
        }
    }

    /** For targets that judge the outcome themselves (HTTP): records a failure with its reason. */
    void failed(int index, byte[] input, Throwable reason) {
        failures.add(new Failure(index, input, reason));
    }

    void tried(boolean accepted) {
        casesTried++;
        if (accepted) {
            casesAccepted++;
        }
    }

    int casesTried() {
        return casesTried;
    }

    /** Writes counts and crashers, then fails the test with the first few failures. */
    void finish() {
        writeCounts();
        for (Failure f : failures) {
            writeCrasher(f);
        }
        StringBuilder report = new StringBuilder();
        for (Failure f : failures.subList(0, Math.min(FAILURES_REPORTED_MAX, failures.size()))) {
            report.append("\ncase ")
                    .append(f.index())
                    .append(": ")
                    .append(preview(f.input()))
                    .append('\n')
                    .append(stackTrace(f.error()));
        }
        if (!failures.isEmpty()) {
            org.assertj.core.api.Assertions.fail(
                    "%s: %d failures in %d cases (seed %d)%s", target, failures.size(), casesTried, seed, report);
        }
    }

    private void writeCounts() {
        String line = target + " seed=" + seed + " cases=" + casesTried + " accepted=" + casesAccepted + " failures="
                + failures.size() + "\n";
        write(OUT.resolve("fuzz-counts").resolve(target + ".txt"), line.getBytes(StandardCharsets.UTF_8));
    }

    private void writeCrasher(Failure f) {
        write(OUT.resolve("fuzz-crashers").resolve(target).resolve("case-" + f.index() + ".bin"), f.input());
    }

    private static void write(Path p, byte[] b) {
        try {
            Files.createDirectories(p.getParent());
            Files.write(p, b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String preview(byte[] input) {
        String s = new String(input, StandardCharsets.UTF_8);
        return s.length() <= 600 ? s : s.substring(0, 600) + "... (" + input.length + " bytes)";
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        String s = w.toString();
        return s.length() <= 3000 ? s : s.substring(0, 3000);
    }
}
