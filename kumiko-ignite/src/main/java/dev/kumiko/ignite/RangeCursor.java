package dev.kumiko.ignite;

import dev.kumiko.storage.Cursor;
import java.util.Objects;
import org.apache.ignite.lang.IgniteException;
import org.apache.ignite.sql.IgniteSql;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;
import org.apache.ignite.tx.Transaction;
import org.jspecify.annotations.Nullable;

/**
 * A range scan as one SQL query over the sorted index on K, fetched a page at a time. Ignite
 * compares VARBINARY as unsigned bytes, the store's key order. Outside a transaction the query runs
 * in an implicit read-only one (committed data); in a snapshot's, at its time.
 */
final class RangeCursor implements Cursor {
    /** Rows per network round trip: a Query page (1 MB) of small items in a few trips. */
    static final int PAGE_ROWS = 256;

    private final ResultSet<SqlRow> rows;
    // Null before the first next() and after the last.
    private byte @Nullable [] key;
    private byte @Nullable [] value;

    private RangeCursor(ResultSet<SqlRow> rows) {
        this.rows = rows;
    }

    static RangeCursor open(
            IgniteSql sql, @Nullable Transaction tx, byte[] start, byte @Nullable [] end, boolean reverse) {
        String order = reverse ? "DESC" : "ASC";
        String upper = end == null ? "" : " AND K < ?";
        Statement statement = sql.statementBuilder()
                .query("SELECT K, V FROM " + IgniteSchema.DATA + " WHERE K >= ?" + upper + " ORDER BY K " + order)
                .pageSize(PAGE_ROWS)
                .build();
        Object[] args = end == null ? new Object[] {start} : new Object[] {start, end};
        return new RangeCursor(sql.execute(tx, statement, args));
    }

    /**
     * Runs both orders' statement once over an empty range. A node plans a statement the first
     * time it sees it, which on a busy machine's freshly started cluster has taken longer than the
     * operation timeout; sql should be a client without one.
     */
    static void plan(IgniteSql sql) {
        byte[] key = {0};
        for (boolean reverse : new boolean[] {false, true}) {
            try (RangeCursor empty = open(sql, null, key, key, reverse)) {
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
        }
    }
}
