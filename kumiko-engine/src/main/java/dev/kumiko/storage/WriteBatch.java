package dev.kumiko.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordered list of puts, deletes and counter additions, committed atomically by
 * {@link Store#apply} or {@link Transaction#commit}.
 */
public final class WriteBatch {
    /**
     * A put when value is non-null, a delete when it is null; with isAdd, value is a delta
     * ({@link Counters}) added to the key's counter.
     */
    public record Op(byte[] key, byte[] value, boolean isAdd) {
        public Op(byte[] key, byte[] value) {
            this(key, value, false);
        }

        public boolean isDelete() {
            return value == null;
        }
    }

    private final List<Op> ops = new ArrayList<>(4);

    public WriteBatch put(byte[] key, byte[] value) {
        assert key != null && value != null;
        ops.add(new Op(key, value));
        return this;
    }

    public WriteBatch delete(byte[] key) {
        assert key != null;
        ops.add(new Op(key, null));
        return this;
    }

    /**
     * Adds delta to the counter at key (absent: 0). Additions commute, so concurrent writers of one
     * counter never conflict on it: item counts and sizes are kept this way, in the commit of the
     * change they count.
     */
    public WriteBatch add(byte[] key, long delta) {
        assert key != null;
        if (delta != 0) {
            ops.add(new Op(key, Counters.encode(delta), true));
        }
        return this;
    }

    public List<Op> ops() {
        return ops;
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    public int size() {
        return ops.size();
    }
}
