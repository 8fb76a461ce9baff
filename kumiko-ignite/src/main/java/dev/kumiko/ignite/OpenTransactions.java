package dev.kumiko.ignite;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * This process's open transactions, for {@link dev.kumiko.storage.Store#awaitTransactions}. Over a
 * store shared by processes the engine relies on it only for its own writers (the catalog watch
 * covers the others), so process memory is enough here.
 */
final class OpenTransactions {
    /** A transaction ends within Ignite's transaction timeout; waiting longer would hide a leak. */
    private static final long AWAIT_MILLIS_MAX = IgniteTransaction.SNAPSHOT_TIMEOUT_MILLIS * 2;

    private final Set<CountDownLatch> open = ConcurrentHashMap.newKeySet();

    CountDownLatch register() {
        CountDownLatch ended = new CountDownLatch(1);
        open.add(ended);
        return ended;
    }

    void end(CountDownLatch ended) {
        open.remove(ended);
        ended.countDown();
    }

    void await() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MILLIS_MAX);
        for (CountDownLatch ended : List.copyOf(open)) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !ended.await(left, TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("a transaction stayed open past " + AWAIT_MILLIS_MAX + " ms");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while awaiting transactions", e);
            }
        }
    }
}
