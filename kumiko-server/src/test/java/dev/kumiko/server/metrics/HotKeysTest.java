package dev.kumiko.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.model.AttributeValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hot-key counters stay bounded and keep the hot key when many cold ones pass by. */
class HotKeysTest {
    @Test
    void memoryIsBoundedAndTheHotKeyIsKept() {
        HotKeys keys = new HotKeys();
        AttributeValue hot = new AttributeValue.S("ROOM#hot");
        for (int i = 0; i < 100; i++) {
            keys.record("T", null, hot, false, 10);
        }
        for (int i = 0; i < 3 * HotKeys.KEYS_MAX; i++) {
            keys.record("T", null, new AttributeValue.S("USER#" + i), true, 0.5);
        }
        List<KeyHeat.View> all = keys.top(Integer.MAX_VALUE);
        assertThat(all.size()).isLessThanOrEqualTo(HotKeys.KEYS_MAX);
        KeyHeat.View first = all.get(0);
        assertThat(first.partitionKey()).isEqualTo(hot);
        assertThat(first.writePeakPerSecond())
                .as("1,000 WCU within a second or two")
                .isGreaterThanOrEqualTo(500);
        assertThat(first.indexName()).isEmpty();
    }

    @Test
    void aKeyThatTurnsHotWhenFullIsLetIn() {
        HotKeys keys = new HotKeys();
        for (int i = 0; i < HotKeys.KEYS_MAX; i++) {
            keys.record("T", null, new AttributeValue.S("USER#" + i), true, 0.5);
        }
        AttributeValue late = new AttributeValue.S("ROOM#late");
        // Let in on one request in 16 at random: missed by all 400 with odds (15/16)^400, about 1e-11.
        for (int i = 0; i < 400; i++) {
            keys.record("T", null, late, false, 10);
        }
        List<KeyHeat.View> top = keys.top(1);
        assertThat(top.get(0).partitionKey()).isEqualTo(late);
        assertThat(top.get(0).requests())
                .as("counted from when it was let in")
                .isGreaterThan(1)
                .isLessThanOrEqualTo(400);
    }

    @Test
    void aDroppedTableIsForgotten() {
        HotKeys keys = new HotKeys();
        keys.record("Gone", "GSI1", new AttributeValue.S("K"), true, 1);
        keys.record("Kept", null, new AttributeValue.S("K"), true, 1);
        keys.forget("Gone");
        assertThat(keys.top(10)).extracting(KeyHeat.View::tableName).containsExactly("Kept");
    }
}
