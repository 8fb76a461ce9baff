package dev.kumiko.engine.streams;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.changelog.ChangeLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What a monitor reads about stream consumers: which tables record stream changes, and how old
 * the oldest record a consumer has not read yet is. Reads only; the server's metrics use it.
 */
public final class StreamBacklog {
    private final Catalog catalog;
    private final ChangeLog changeLog;

    public StreamBacklog(Catalog catalog, ChangeLog changeLog) {
        this.catalog = catalog;
        this.changeLog = changeLog;
    }

    /** The tables whose changes are recorded for their stream now. */
    public List<TableDescriptor> streamedTables() {
        List<TableDescriptor> out = new ArrayList<>();
        for (Table t : catalog.tables()) {
            if (ChangeLog.records(t.descriptor())) {
                out.add(t.descriptor());
            }
        }
        return out;
    }

    /** Every table incarnation (TableId) that exists now. */
    public Set<String> tableIds() {
        Set<String> out = new HashSet<>();
        catalog.tables().forEach(t -> out.add(t.descriptor().tableId()));
        return out;
    }

    /**
     * When the oldest visible record at or after the sequence number {@code fromSequence} gives for
     * the table's incarnation (TableId), or after the trim point if later, was written, in epoch
     * milliseconds; -1 when there is none or the table records no changes.
     */
    public long oldestCreatedMillis(String tableName, ToLongFunction<String> fromSequence) {
        Table t = catalog.get(tableName);
        if (t == null || !ChangeLog.records(t.descriptor())) {
            return -1;
        }
        TableDescriptor d = t.descriptor();
        long from = Math.max(fromSequence.applyAsLong(d.tableId()), changeLog.trimmedBelow(d.id()));
        ChangeLog.Page page = changeLog.read(d.id(), from, changeLog.visibleBound(d), 1, Long.MAX_VALUE);
        return page.records().isEmpty() ? -1 : page.records().get(0).createdMillis();
    }
}
