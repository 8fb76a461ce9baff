package dev.kumiko.ignite;

import dev.kumiko.storage.StoreConflictException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.jspecify.annotations.Nullable;

/**
 * Keys claimed by running multi-item transactions (TransactionMode.CLAIM), as rows in
 * {@value IgniteSchema#CLAIMS} that every server sees. DynamoDB refuses, rather than queues, a
 * write that meets a TransactWriteItems in flight; Ignite would queue it on its row locks, so the
 * claim is written (and committed) before the transaction reads anything, and every writer checks
 * the claims of its keys when it begins. A claim carries an expiry, so the claims of a server that
 * died are ignored once it passes.
 */
final class Claims {
    static final String OWNER = "OWNER";
    static final String EXPIRES = "EXPIRES";
    /** Longer than any transaction lives (Ignite aborts one after its timeout). */
    static final long TTL_MILLIS = IgniteTransaction.TIMEOUT_MILLIS * 2;
    /** Inserts tried when expired claims stand in the way (each clears those it met). */
    static final int ATTEMPTS_MAX = 3;

    private final RecordView<Tuple> claims;

    Claims(RecordView<Tuple> claims) {
        this.claims = claims;
    }

    /** Fails with a claimed conflict when another holds one of keys; reads outside any transaction. */
    void check(byte[][] keys) {
        List<Tuple> found;
        try {
            found = claims.getAll(null, Rows.keys(keys));
        } catch (RuntimeException e) {
            throw Conflicts.isConflict(e) ? Conflicts.retryable() : e;
        }
        throwIfHeld(keys, found, null);
    }

    /**
     * Claims keys for owner before it returns; the rows to give to {@link #release}. A claim is an
     * insert, which fails for a key that has one: no transaction reads the claims first, since two
     * claimants that both read a key's (missing) claim and then both write it would each wait for
     * the other's read lock. Each partition's rows insert in their own implicit transaction, so a
     * claimant that meets a live claim on one key may have claimed others: it removes its own and
     * fails; a claim that expired (its server died) is removed and the insert tried again. Rows go
     * one colocation group at a time in key order ({@link TxBatches#inKeyOrder}).
     */
    List<Tuple> claim(byte[][] keys, String owner) {
        List<Tuple> rows = new ArrayList<>(keys.length);
        long expires = System.currentTimeMillis() + TTL_MILLIS;
        for (byte[] key : distinct(keys)) {
            rows.add(Rows.key(key).set(OWNER, owner).set(EXPIRES, expires));
        }
        for (int attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
            List<Tuple> skipped = insert(rows);
            if (skipped.isEmpty()) {
                return rows;
            }
            List<Tuple> found = afterSkip(rows, skipped);
            throwIfHeld(keys, found, owner);
            // Only expired claims (or ones released meanwhile) stood in the way: clear them, try again.
            List<Tuple> expired =
                    found.stream().filter(java.util.Objects::nonNull).toList();
            if (!expired.isEmpty()) {
                TxBatches.inKeyOrder(expired, part -> claims.deleteAllExact(null, part));
            }
        }
        throw new StoreConflictException(null, true);
    }

    /** Releases the rows that were inserted; returns the claims found on the skipped keys. */
    private List<Tuple> afterSkip(List<Tuple> rows, List<Tuple> skipped) {
        try {
            release(inserted(rows, skipped));
            return claims.getAll(null, keysOf(skipped));
        } catch (RuntimeException e) {
            // What is left of ours expires after TTL_MILLIS; either way these keys are contended.
            throw Conflicts.isConflict(e) ? new StoreConflictException(null, true) : e;
        }
    }

    /** Inserts rows; returns those skipped (a claim was there). On an error, leaves none behind. */
    private List<Tuple> insert(List<Tuple> rows) {
        try {
            return TxBatches.inKeyOrder(rows, part -> claims.insertAll(null, part));
        } catch (RuntimeException e) {
            try {
                release(rows);
            } catch (RuntimeException ignored) {
                // The claims expire after TTL_MILLIS; the insert's own error is the one to report.
            }
            if (Conflicts.isConflict(e)) {
                throw new StoreConflictException(null, true);
            }
            throw e;
        }
    }

    private static List<Tuple> inserted(List<Tuple> rows, List<Tuple> skipped) {
        List<Tuple> out = new ArrayList<>(rows.size());
        for (Tuple row : rows) {
            if (skipped.stream().noneMatch(s -> Arrays.equals(s.bytesValue(Rows.K), row.bytesValue(Rows.K)))) {
                out.add(row);
            }
        }
        return out;
    }

    private static List<Tuple> keysOf(List<Tuple> rows) {
        List<Tuple> out = new ArrayList<>(rows.size());
        for (Tuple row : rows) {
            out.add(Rows.key(row.bytesValue(Rows.K)));
        }
        return out;
    }

    private static List<byte[]> distinct(byte[][] keys) {
        Map<BatchWrites.ByteKey, byte[]> unique = new LinkedHashMap<>();
        for (byte[] key : keys) {
            unique.putIfAbsent(new BatchWrites.ByteKey(key), key);
        }
        return new ArrayList<>(unique.values());
    }

    /** Removes owner's claims (only those still as written: an expired claim may be another's now). */
    void release(List<Tuple> rows) {
        if (!rows.isEmpty()) {
            TxBatches.inKeyOrder(rows, part -> claims.deleteAllExact(null, part));
        }
    }

    /** Fails with a claimed conflict naming the positions in keys of the live claims others hold. */
    private static void throwIfHeld(byte[][] keys, List<Tuple> found, @Nullable String owner) {
        long now = System.currentTimeMillis();
        int[] held = new int[keys.length];
        int count = 0;
        for (Tuple claim : found) {
            if (claim == null
                    || claim.longValue(EXPIRES) <= now
                    || claim.stringValue(OWNER).equals(owner)) {
                continue;
            }
            byte[] key = claim.bytesValue(Rows.K);
            for (int i = 0; i < keys.length; i++) {
                if (Arrays.equals(keys[i], key)) {
                    held[count++] = i;
                }
            }
        }
        if (count > 0) {
            throw new StoreConflictException(Arrays.copyOf(held, count), true);
        }
    }
}
