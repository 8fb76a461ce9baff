package dev.kumiko.ignite;

import dev.kumiko.storage.Cursor;
import java.util.Objects;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.lang.IgniteException;
import org.apache.ignite.sql.IgniteSql;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;
import org.jspecify.annotations.Nullable;

/**
 * A range scan as one SQL query over the sorted index on K, fetched a page at a time. Ignite
 * compares VARBINARY as unsigned bytes, the store's key order. When the range lies in one
 * colocation group, the group is named in the WHERE clause too, so that the plan maps to that
 * group's one partition. It reads in the transaction given (a snapshot's, at its time), in a
 * read-write transaction of its own ({@link #openReadWrite}), or in an implicit read-only one,
 * which first waits for the cluster's safe time to pass its read time: up to the cluster's
 * {@code idleSafeTimeSyncIntervalMillis} (250 ms by default) when the partitions see no writes.
 */
final class RangeCursor implements Cursor {
    /** Rows per network round trip: a Query page (1 MB) of small items in a few trips. */
    static final int PAGE_ROWS = 256;

    private final ResultSet<SqlRow> rows;
    /** The read-write transaction this cursor began and ends, or null. */
    private final @Nullable Transaction owned;
    // Null before the first next() and after the last.
    private byte @Nullable [] key;
    private byte @Nullable [] value;

    private RangeCursor(ResultSet<SqlRow> rows, @Nullable Transaction owned) {
        this.rows = rows;
        this.owned = owned;
    }

    static RangeCursor open(
            IgniteSql sql,
            @Nullable Transaction tx,
            byte @Nullable [] group,
            byte[] start,
            byte @Nullable [] end,
            boolean reverse) {
        return new RangeCursor(
                sql.execute(tx, statement(sql, group != null, end != null, reverse), args(group, start, end)), null);
    }

    /**
     * The range read in a read-write transaction this cursor owns: the latest committed rows, with no
     * wait for the safe time, and shared locks on what it reads until it closes. A read that meets a
     * writer's lock and is the younger aborts (a conflict, {@link Conflicts#isConflict}).
     */
    static RangeCursor openReadWrite(
            IgniteClient client, byte @Nullable [] group, byte[] start, byte @Nullable [] end, boolean reverse) {
        Transaction tx =
                client.transactions().begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
        try {
            IgniteSql sql = client.sql();
            return new RangeCursor(
                    sql.execute(tx, statement(sql, group != null, end != null, reverse), args(group, start, end)), tx);
        } catch (RuntimeException e) {
            CounterFolds.rollbackQuietly(tx);
            throw e;
        }
    }

    private static Statement statement(IgniteSql sql, boolean inGroup, boolean bounded, boolean reverse) {
        return sql.statementBuilder()
                .query(query(inGroup, bounded, reverse))
                .pageSize(PAGE_ROWS)
                .build();
    }

    /** The range's SQL: its parameters are G (when inGroup), then start, then end (when bounded). */
    static String query(boolean inGroup, boolean bounded, boolean reverse) {
        String where = (inGroup ? "G = ? AND " : "") + "K >= ?" + (bounded ? " AND K < ?" : "");
        return "SELECT " + IgniteSchema.forceIndex(IgniteSchema.DATA_BY_KEY) + " K, V FROM " + IgniteSchema.DATA
                + " WHERE " + where + " ORDER BY K " + (reverse ? "DESC" : "ASC");
    }

    private static Object[] args(byte @Nullable [] group, byte[] start, byte @Nullable [] end) {
        java.util.List<Object> out = new java.util.ArrayList<>(3);
        if (group != null) {
            out.add(group);
        }
        out.add(start);
        if (end != null) {
            out.add(end);
        }
        return out.toArray();
    }

    /**
     * Runs both orders' statement once over an empty range. A node plans a statement the first
     * time it sees it, which on a busy machine's freshly started cluster has taken longer than the
     * operation timeout; sql should be a client without one.
     */
    static void plan(IgniteSql sql) {
        byte[] key = {0};
        for (boolean reverse : new boolean[] {false, true}) {
            try (RangeCursor empty = open(sql, null, null, key, key, reverse)) {
                empty.next();
            }
        }
    }

    @Override
    public boolean next() {
        if (!rows.hasNext()) {
            return false;
        }
        SqlRow row = rows.next();
        key = row.bytesValue(0);
        value = row.bytesValue(1);
        return true;
    }

    @Override
    public byte[] key() {
        return Objects.requireNonNull(key, "key() without a current entry");
    }

    @Override
    public byte[] value() {
        return Objects.requireNonNull(value, "value() without a current entry");
    }

    /**
     * Closes the server's cursor. A failure to close is not the caller's: every row it read was
     * read, and a cursor that is gone already (the node closed it with its implicit transaction:
     * "Failed to find resource", seen under load) holds nothing to release.
     */
    @Override
    public void close() {
        try {
            rows.close();
        } catch (IgniteException alreadyGone) {
            // Nothing to release; the node drops a cursor it no longer has.
        } finally {
            if (owned != null) {
                // It wrote nothing: ending it only releases its locks, which a rollback does too.
                CounterFolds.rollbackQuietly(owned);
            }
        }
    }
}
