package dev.kumiko.engine.exchange;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A table's items from one consistent {@link Snapshot} of the store, taken at construction: every
 * write committed before it is in the export, none after. Holds the snapshot until closed.
 */
public final class SnapshotExportSource implements ExportSource, AutoCloseable {
    private final Snapshot snapshot;
    private final int tableId;
    private final long asOfMillis;

    SnapshotExportSource(Store store, int tableId, long nowMillis) {
        this.snapshot = store.snapshot();
        this.tableId = tableId;
        this.asOfMillis = nowMillis;
    }

    @Override
    public long asOfMillis() {
        return asOfMillis;
    }

    @Override
    public void items(Consumer<Map<String, AttributeValue>> sink) {
        try (Cursor c = snapshot.scan(KeySpace.prefix(KeySpace.ITEMS, tableId),
                KeySpace.prefixEnd(KeySpace.ITEMS, tableId), false)) {
            while (c.next()) {
                sink.accept(ItemCodec.decode(c.value()));
            }
        }
    }

    @Override
    public void close() {
        snapshot.close();
    }
}
