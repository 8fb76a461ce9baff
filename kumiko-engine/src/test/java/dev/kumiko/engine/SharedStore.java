package dev.kumiko.engine;

import dev.kumiko.storage.ForwardingStore;
import dev.kumiko.storage.Store;
import java.util.function.Supplier;

/**
 * One engine's handle on a store that several engines share, at once or one after another (a
 * restart): every call goes to the shared store, except close, which an engine makes when it closes
 * and which must not close the store under the other engines. The test closes the store itself.
 */
public final class SharedStore extends ForwardingStore {
    private final boolean local;

    public SharedStore(Store inner) {
        this(inner, true);
    }

    /**
     * local false makes the handle act as a store shared by processes: it says it is not local and
     * keeps no process memory ({@link Store#shared} throws), so the engines over it can share
     * nothing but store data.
     */
    public SharedStore(Store inner, boolean local) {
        super(inner);
        this.local = local;
    }

    @Override
    public <T> T shared(Class<T> type, Supplier<T> create) {
        if (!local) {
            throw new UnsupportedOperationException("a store shared by processes keeps no process memory");
        }
        return super.shared(type, create);
    }

    @Override
    public boolean local() {
        return local && super.local();
    }

    @Override
    public void close() {
        // The store outlives each engine; its owner closes it.
    }
}
