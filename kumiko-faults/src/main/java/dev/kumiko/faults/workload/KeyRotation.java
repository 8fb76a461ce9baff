package dev.kumiko.faults.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spreads operations over a few keys at a time and moves on to fresh keys every so often, so that
 * each key's history stays short enough for the linearizability search (which is exponential in the
 * number of operations open at once on one key) while the run as a whole goes on for minutes.
 */
final class KeyRotation {
    private final String prefix;
    private final int keysAtOnce;
    private final long operationsPerGeneration;
    private final AtomicLong operations = new AtomicLong();
    private final Set<String> used = new ConcurrentSkipListSet<>();

    KeyRotation(String prefix, int keysAtOnce, int operationsPerKey) {
        if (keysAtOnce < 1 || operationsPerKey < 1) {
            throw new IllegalArgumentException("keysAtOnce and operationsPerKey must be positive");
        }
        // Keys of one run are new to the table: runs on one store must not see each other's data.
        this.prefix = prefix + Long.toString(System.currentTimeMillis(), 36) + "-";
        this.keysAtOnce = keysAtOnce;
        this.operationsPerGeneration = (long) keysAtOnce * operationsPerKey;
    }

    String next(Random random) {
        long generation = operations.getAndIncrement() / operationsPerGeneration;
        String key = prefix + generation + "-" + random.nextInt(keysAtOnce);
        used.add(key);
        return key;
    }

    List<String> used() {
        return new ArrayList<>(used);
    }
}
