package dev.kumiko.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.ErrorCode;
import dev.kumiko.storage.StoreFullException;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The memory store's budget: what it counts, what it refuses, and that a refusal applies nothing. */
class MemoryStoreBudgetTest {
    private static final int VALUE_BYTES = 1000;
    /** Room for a few dozen entries of VALUE_BYTES. */
    private static final long BUDGET_BYTES = 40_000;

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int bytes, int fill) {
        byte[] v = new byte[bytes];
        java.util.Arrays.fill(v, (byte) fill);
        return v;
    }

    /** Puts single keys until the store refuses one; returns how many it took. */
    private static int fill(MemoryStore store) {
        for (int i = 0; i < 1000; i++) {
            try {
                store.apply(new WriteBatch().put(key(i), value(VALUE_BYTES, i)));
            } catch (StoreFullException e) {
                return i;
            }
        }
        throw new AssertionError("a store of " + BUDGET_BYTES + " bytes took 1000 values of " + VALUE_BYTES);
    }

    @Test
    void countsWhatItHoldsAndNothingOnceEmpty() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        store.apply(new WriteBatch().put(key(1), value(VALUE_BYTES, 1)).add(key(2), 5));
        assertThat(store.dataBytes()).isGreaterThanOrEqualTo(VALUE_BYTES + 8 + 2L * Cell.ENTRY_OVERHEAD_BYTES);
        store.apply(new WriteBatch().put(key(1), value(10, 1)));
        assertThat(store.dataBytes()).isLessThan(VALUE_BYTES);
        store.apply(new WriteBatch().delete(key(1)).delete(key(2)));
        assertThat(store.dataBytes()).isZero();
    }

    @Test
    void refusesGrowthPastTheBudgetWithAClearError() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        int taken = fill(store);
        assertThat(taken).isGreaterThan(10);
        assertThat(store.dataBytes()).isLessThanOrEqualTo(BUDGET_BYTES);
        assertThatThrownBy(() -> store.apply(new WriteBatch().put(key(taken), value(VALUE_BYTES, 0))))
                .isInstanceOf(StoreFullException.class)
                .hasMessageContaining("in-memory store is full")
                .hasMessageContaining("Reads and deletes still work")
                .satisfies(e -> assertThat(((StoreFullException) e).code()).isEqualTo(ErrorCode.INTERNAL_SERVER_ERROR));
        assertThat(store.get(key(0))).isEqualTo(value(VALUE_BYTES, 0));
    }

    @Test
    void aRefusedBatchAppliesNothing() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        int taken = fill(store);
        store.apply(new WriteBatch().delete(key(0)));
        long before = store.dataBytes();
        // The first put fits in the room the delete made; the batch as a whole does not.
        WriteBatch batch = new WriteBatch()
                .put(key(0), value(VALUE_BYTES, 7))
                .put(key(taken), value(VALUE_BYTES, 7))
                .put(key(taken + 1), value(VALUE_BYTES, 7));
        assertThatThrownBy(() -> store.apply(batch)).isInstanceOf(StoreFullException.class);
        assertThat(store.get(key(0))).isNull();
        assertThat(store.get(key(taken))).isNull();
        assertThat(store.dataBytes()).isEqualTo(before);
    }

    @Test
    void overwritesThatDoNotGrowAndDeletesGoOnWhenFull() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        int taken = fill(store);
        store.apply(new WriteBatch().put(key(0), value(VALUE_BYTES, 9)));
        store.apply(new WriteBatch().put(key(1), value(VALUE_BYTES / 4, 9)));
        assertThat(store.get(key(0))).isEqualTo(value(VALUE_BYTES, 9));
        for (int i = 2; i < taken; i++) {
            store.apply(new WriteBatch().delete(key(i)));
        }
        // Deleting made room: new keys fit again.
        store.apply(new WriteBatch().put(key(taken), value(VALUE_BYTES, 1)).put(key(taken + 1), value(VALUE_BYTES, 1)));
        assertThat(store.get(key(taken + 1))).isEqualTo(value(VALUE_BYTES, 1));
    }

    @Test
    void aBatchThatDeletesMayGrowALittlePastTheBudget() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        int taken = fill(store);
        // As a delete on a table with a stream: the item goes, a record of about its size comes.
        store.apply(new WriteBatch().delete(key(0)).put(key(taken), value(VALUE_BYTES + 200, 1)));
        assertThat(store.get(key(0))).isNull();
        assertThat(store.dataBytes())
                .isLessThanOrEqualTo(BUDGET_BYTES + BUDGET_BYTES / MemoryStore.DELETE_RESERVE_DIVISOR);
    }

    @Test
    void aBatchThatDeletesOneKeyAndAddsMoreIsRefused() {
        MemoryStore store = new MemoryStore(BUDGET_BYTES);
        int taken = fill(store);
        // As a transaction that deletes an item and puts a larger one: growth beyond a change record's.
        WriteBatch batch = new WriteBatch()
                .delete(key(0))
                .put(key(taken), value(VALUE_BYTES + MemoryStore.DELETE_GROWTH_BYTES_MAX, 1));
        assertThatThrownBy(() -> store.apply(batch)).isInstanceOf(StoreFullException.class);
        assertThat(store.get(key(0))).isEqualTo(value(VALUE_BYTES, 0));
    }

    @Test
    void theDefaultBudgetIsAShareOfTheHeap() {
        assertThat(new MemoryStore().dataBytesMax())
                .isEqualTo(Runtime.getRuntime().maxMemory() / 100 * MemoryStore.HEAP_PERCENT_DEFAULT);
        assertThatThrownBy(() -> new MemoryStore(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
