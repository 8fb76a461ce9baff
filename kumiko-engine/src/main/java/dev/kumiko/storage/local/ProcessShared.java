package dev.kumiko.storage.local;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * In-memory state attached to a local store, shared by every engine over it. A local store is
 * reachable from one process only (RocksDB locks its directory; a memory store lives in its JVM),
 * so state kept here is seen by every writer of the store, exactly as if it were store data:
 * the change log's sequence numbers in flight, which must not be persisted per write to stay fast.
 */
public final class ProcessShared {
    private final ConcurrentHashMap<Class<?>, Object> states = new ConcurrentHashMap<>();

    /** The one instance of type for this store, created on first use. */
    public <T> T get(Class<T> type, Supplier<T> create) {
        Object state = states.get(type);
        if (state == null) {
            // putIfAbsent rather than computeIfAbsent with a lambda (see Clock.SYSTEM); two first
            // callers may both create one, and both get the one that was put.
            Object created = create.get();
            Object raced = states.putIfAbsent(type, created);
            state = raced != null ? raced : created;
        }
        return type.cast(state);
    }
}
