package dev.kumiko.storage;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An ordered list of puts, deletes and counter additions, committed atomically by
 * {@link Store#apply} or {@link Transaction#commit}.
 */
public final class WriteBatch {
    /**
     * A put when value is non-null, a delete when it is null; with isAdd, value is a delta
     * ({@link Counters}) added to the key's counter.
     */
    public record Op(byte[] key, byte @Nullable [] value, boolean isAdd) {
        public Op(byte[] key, byte @Nullable [] value) {
            this(key, value, false);
        }

        public boolean isDelete() {
            return value == null;
        }
    }

    /** Ops a batch holds without growing when its writer does not say how many to expect. */
    static final int OPS_DEFAULT = 4;
    /** Bounds a caller's estimate, so that a wrong one costs growth, not memory. */
    static final int OPS_EXPECTED_MAX = 1024;

    private final List<Op> ops;
    /**
     * Positions of counter additions that a later addition to the same key (the same array:
     * counters' keys are held by their owners) is folded into; one is dropped from here when a put
     * or delete of its key follows it, since an addition may not move to before that.
     */
    private int[] adds = new int[4];

    private int addCount;

    public WriteBatch() {
        this(OPS_DEFAULT);
    }

    /**
     * A batch sized for about expectedOps ops: a BatchWriteItem's 25 items with their index entries
     * and counters are about 60, and growing the list there from the default took 3 % of its samples.
     */
    public WriteBatch(int expectedOps) {
        assert expectedOps >= 0 : expectedOps;
        ops = new ArrayList<>(Math.min(Math.max(expectedOps, OPS_DEFAULT), OPS_EXPECTED_MAX));
    }

    public WriteBatch put(byte[] key, byte[] value) {
        ops.add(new Op(SeamLimits.key(key), SeamLimits.value(value)));
        closeAdds(key);
        return this;
    }

    public WriteBatch delete(byte[] key) {
        ops.add(new Op(SeamLimits.key(key), null));
        closeAdds(key);
        return this;
    }

    private void closeAdds(byte[] key) {
        for (int i = 0; i < addCount; i++) {
            if (java.util.Arrays.equals(ops.get(adds[i]).key(), key)) {
                adds[i] = adds[--addCount];
                return;
            }
        }
    }

    /**
     * Adds delta to the counter at key (absent: 0). Additions commute, so concurrent writers of one
     * counter never conflict on it: item counts and sizes are kept this way, in the commit of the
     * change they count.
     */
    public WriteBatch add(byte[] key, long delta) {
        SeamLimits.key(key);
        if (delta == 0) {
            return this;
        }
        // The items of one BatchWriteItem each add to the same few counters (the table's and its
        // indexes' count and size): folded here, the store applies one addition per counter.
        for (int i = 0; i < addCount; i++) {
            Op op = ops.get(adds[i]);
            if (op.key() == key) {
                ops.set(adds[i], new Op(key, Counters.encode(Counters.decode(op.value()) + delta), true));
                return this;
            }
        }
        if (addCount == adds.length) {
            adds = java.util.Arrays.copyOf(adds, addCount * 2);
        }
        adds[addCount++] = ops.size();
        ops.add(new Op(key, Counters.encode(delta), true));
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
