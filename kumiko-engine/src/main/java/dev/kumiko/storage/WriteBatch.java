package dev.kumiko.storage;

import java.util.ArrayList;
import java.util.List;

/** An ordered list of puts and deletes, committed atomically by {@link Store#apply}. */
public final class WriteBatch {
    /** A put when value is non-null, a delete when it is null. */
    public record Op(byte[] key, byte[] value) {
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
