package dev.kumiko.engine.exchange;

import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A table's items from one consistent {@link Snapshot} of the store, taken when {@link #items} is
 * called: every write committed before it is in the export, none after.
 *
 * <p>The memory store's snapshot holds off every writer while it is open (it is a read lock, taken
 * and released on one thread), so over it the table's encoded items are copied out first and the
 * snapshot closed before the export formats and writes them; the table is in memory already, so the
 * copy at most doubles it for the export's duration. Other stores' snapshots cost writers nothing
 * and the export streams from them.
 */
public final class SnapshotExportSource implements ExportSource {
    private final Store store;
    private final int tableId;
    private final Clock clock;
    private volatile long asOfMillis;

    SnapshotExportSource(Store store, int tableId, Clock clock) {
        this.store = store;
        this.tableId = tableId;
        this.clock = clock;
        this.asOfMillis = clock.nowMillis();
    }

    /** The snapshot's time once {@link #items} ran; until then the time the export was asked for. */
    @Override
    public long asOfMillis() {
        return asOfMillis;
    }

    @Override
    public void items(Consumer<Map<String, AttributeValue>> sink) {
        List<byte[]> copied = store instanceof MemoryStore ? new ArrayList<>() : null;
        try (Snapshot snapshot = store.snapshot()) {
            asOfMillis = clock.nowMillis();
            try (Cursor c = snapshot.scan(
                    KeySpace.prefix(KeySpace.ITEMS, tableId), KeySpace.prefixEnd(KeySpace.ITEMS, tableId), false)) {
                while (c.next()) {
                    if (copied != null) {
                        copied.add(Arrays.copyOf(c.value(), c.value().length));
                    } else {
                        sink.accept(EncodedItem.of(c.value()));
                    }
                }
            }
        }
        // Each item stays in its stored bytes: a DynamoDB JSON line is written from them, and only a
        // format that walks the item (Amazon Ion) decodes it.
        if (copied != null) {
            for (byte[] encoded : copied) {
                sink.accept(EncodedItem.of(encoded));
            }
        }
    }
}
