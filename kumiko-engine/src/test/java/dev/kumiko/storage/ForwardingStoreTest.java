package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.memory.MemoryStore;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forwarding shapes pass the store contract when every transaction, snapshot and cursor goes
 * through one, so a test wrapper built on them changes only what it overrides; and they forward
 * every method, so a method added to the seam cannot fall silently to a default in a wrapper.
 */
class ForwardingStoreTest extends StoreContract {
    /** Wraps what the store hands out as well as the store. */
    private static final class WrapsEverything extends ForwardingStore {
        WrapsEverything(Store inner) {
            super(inner);
        }

        @Override
        public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
            return new ForwardingCursor(super.scan(startInclusive, endExclusive, reverse));
        }

        @Override
        public Transaction begin(byte[][] keys, TransactionMode mode) {
            return new ForwardingTransaction(super.begin(keys, mode));
        }

        @Override
        public Snapshot snapshot() {
            return new ForwardingSnapshot(super.snapshot()) {
                @Override
                public Cursor scan(byte[] startInclusive, byte[] endExclusive, boolean reverse) {
                    return new ForwardingCursor(super.scan(startInclusive, endExclusive, reverse));
                }
            };
        }
    }

    @Override
    protected Store newStore() {
        return new WrapsEverything(new MemoryStore());
    }

    /** As the memory store it wraps. */
    @Override
    protected boolean snapshotsBlockWriters() {
        return true;
    }

    @Test
    void everyMethodIsForwarded() {
        // begin(byte[]) is Store's default over begin(byte[][], mode) on purpose (see ForwardingStore).
        assertThat(unforwarded(Store.class, ForwardingStore.class)).containsExactly("begin([B)");
        assertThat(unforwarded(Transaction.class, ForwardingTransaction.class)).isEmpty();
        assertThat(unforwarded(Snapshot.class, ForwardingSnapshot.class)).isEmpty();
        assertThat(unforwarded(Cursor.class, ForwardingCursor.class)).isEmpty();
    }

    /** The instance methods of seam that forwarding does not declare, as name(parameter types). */
    private static List<String> unforwarded(Class<?> seam, Class<?> forwarding) {
        List<String> missing = new ArrayList<>();
        for (Method m : seam.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            if (!declares(forwarding, m)) {
                List<String> types =
                        Arrays.stream(m.getParameterTypes()).map(Class::getName).toList();
                missing.add(m.getName() + "(" + String.join(",", types) + ")");
            }
        }
        return missing;
    }

    private static boolean declares(Class<?> type, Method m) {
        try {
            return type.getDeclaredMethod(m.getName(), m.getParameterTypes()) != null;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
