package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.storage.memory.MemoryStore;
import org.junit.jupiter.api.Test;

/** Keys and values that no engine path makes are refused at the seam, and nothing is written. */
class SeamLimitsTest {
    private static final byte[] KEY = {1, 2, 3};

    @Test
    void aBatchRefusesAMissingOrEmptyOrOverlongKey() {
        WriteBatch batch = new WriteBatch();
        assertThatThrownBy(() -> batch.put(null, new byte[1]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a key of null");
        assertThatThrownBy(() -> batch.delete(new byte[0]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a key of 0 bytes");
        assertThatThrownBy(() -> batch.add(new byte[SeamLimits.KEY_BYTES_MAX + 1], 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a key of " + (SeamLimits.KEY_BYTES_MAX + 1) + " bytes");
        assertThat(batch.isEmpty()).isTrue();
    }

    @Test
    void aBatchRefusesAMissingOrOverlongValue() {
        WriteBatch batch = new WriteBatch();
        assertThatThrownBy(() -> batch.put(KEY, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a value of null");
        assertThatThrownBy(() -> batch.put(KEY, new byte[SeamLimits.VALUE_BYTES_MAX + 1]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at most");
        assertThat(batch.isEmpty()).isTrue();
    }

    @Test
    void theLimitsThemselvesAreAccepted() {
        byte[] longest = new byte[SeamLimits.KEY_BYTES_MAX];
        longest[0] = 7;
        try (MemoryStore store = new MemoryStore()) {
            store.apply(new WriteBatch().put(longest, new byte[0]).put(new byte[] {0}, new byte[3]));
            try (Snapshot s = store.snapshot()) {
                assertThat(s.get(longest)).isEmpty();
                assertThat(s.get(new byte[] {0})).hasSize(3);
            }
        }
    }
}
