package dev.kumiko.ignite;

import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import org.apache.ignite.client.IgniteClient;
import org.jspecify.annotations.Nullable;

/**
 * A range of items or index entries read outside a snapshot (a Query or Scan page): first in a
 * read-write transaction, which reads the latest committed rows without the read-only wait for
 * the cluster's safe time (up to 250 ms a page, RangeCursor). A read-write read takes shared locks,
 * and one that meets a writer's lock and is the younger is aborted; the range then goes on
 * read-only from just past the last key it returned, which waits for the safe time but meets no
 * lock. Either way it sees every write acknowledged before the read began, as a strongly
 * consistent read must.
 */
final class LatestRange implements Cursor {
    private final IgniteClient client;
    private final byte @Nullable [] group;
    private final byte[] start;
    private final byte @Nullable [] end;
    private final boolean reverse;
    private RangeCursor current;
    private boolean readOnly;
    /** The last key returned, where a read-only continuation starts after; null before the first. */
    private byte @Nullable [] last;

    private LatestRange(
            IgniteClient client, byte @Nullable [] group, byte[] start, byte @Nullable [] end, boolean reverse) {
        this.client = client;
        this.group = group;
        this.start = start;
        this.end = end;
        this.reverse = reverse;
        this.current = openFirst();
    }

    static Cursor open(IgniteClient client, byte[] start, byte @Nullable [] end, boolean reverse) {
        return new LatestRange(client, Colocation.groupOfRange(start, end), start, end, reverse);
    }

    private RangeCursor openFirst() {
        try {
            return RangeCursor.openReadWrite(client, group, start, end, reverse);
        } catch (RuntimeException e) {
            if (!Conflicts.isConflict(e)) {
                throw e;
            }
            return continueReadOnly();
        }
    }

    /** The rest of the range after {@link #last}, read-only. */
    private RangeCursor continueReadOnly() {
        readOnly = true;
        byte[] from = start;
        byte @Nullable [] to = end;
        if (last != null) {
            if (reverse) {
                to = last;
            } else {
                from = Bytes.concat(last, new byte[] {0}); // the least key after last
            }
        }
        byte[] s = from;
        byte @Nullable [] e = to;
        return TransientReads.read(() -> RangeCursor.open(client.sql(), null, group, s, e, reverse));
    }

    @Override
    public boolean next() {
        boolean found;
        try {
            found = current.next();
        } catch (RuntimeException e) {
            if (readOnly || !Conflicts.isConflict(e)) {
                throw e;
            }
            current.close();
            current = continueReadOnly();
            found = current.next();
        }
        if (found) {
            last = current.key();
        }
        return found;
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public void close() {
        current.close();
    }
}
