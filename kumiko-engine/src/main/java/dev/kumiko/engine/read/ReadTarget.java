package dev.kumiko.engine.read;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.index.IndexEntries;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.IndexKey;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.keys.KeyEncoding;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.Select;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a Query or Scan reads: the table's items, or one secondary index's entries. Knows the key
 * schema to match conditions against, where the entries lie in the store, and which attributes
 * make up a LastEvaluatedKey (for an index: the table's key and the index's).
 */
final class ReadTarget {
    private final TableDescriptor table;
    private final @Nullable IndexDescriptor index;

    private ReadTarget(TableDescriptor table, @Nullable IndexDescriptor index) {
        this.table = table;
        this.index = index;
    }

    /** The table, or the named index with DynamoDB's checks for reading it. */
    static ReadTarget resolve(TableDescriptor t, @Nullable String indexName, boolean consistentRead) {
        if (indexName == null) {
            return new ReadTarget(t, null);
        }
        IndexDescriptor x = find(t, indexName);
        if (x == null) {
            throw DynamoException.validation("The table does not have the specified index: " + indexName);
        }
        if (x.global() && consistentRead) {
            throw DynamoException.validation("Consistent reads are not supported on global secondary indexes");
        }
        if (!x.isReadable()) {
            throw DynamoException.validation("Cannot read from backfilling global secondary index: " + indexName);
        }
        return new ReadTarget(t, x);
    }

    private static @Nullable IndexDescriptor find(TableDescriptor t, String name) {
        for (IndexDescriptor x : t.localSecondaryIndexes()) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        for (IndexDescriptor x : t.globalSecondaryIndexes()) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        return null;
    }

    TableDescriptor table() {
        return table;
    }

    /** The index read, or null when the table itself is. */
    @Nullable
    IndexDescriptor index() {
        return index;
    }

    /** A GSI whose projection is not ALL cannot answer for whole items. */
    void checkSelect(@Nullable Select select) {
        if (select == Select.ALL_ATTRIBUTES && index != null && index.global() && !IndexEntries.projectsAll(index)) {
            throw DynamoException.invalidParameter("Select type ALL_ATTRIBUTES is not supported for global secondary "
                    + "index " + index.indexName() + " because its projection type is not ALL");
        }
    }

    /**
     * A GSI cannot fetch from the table, so a projection may name only what it projects (an LSI
     * fetches the rest instead). The text is DynamoDB's as a user quoted it from AWS; the list
     * format for several names is UNVERIFIED.
     */
    void checkProjected(Set<String> projectionNames) {
        if (index == null || !index.global() || IndexEntries.projectsAll(index)) {
            return;
        }
        List<String> missing = new ArrayList<>();
        for (String name : projectionNames) {
            if (!IndexEntries.projects(table, index, name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw DynamoException.invalidParameter(
                    "Global secondary index " + index.indexName() + " does not project " + missing);
        }
    }

    /**
     * Whether each entry must be completed from the table: only an LSI can do that, when the
     * request wants whole items or names attributes the index does not hold.
     */
    boolean fetchesFromTable(@Nullable Select select, Set<String> namesRead) {
        if (index == null || index.global() || IndexEntries.projectsAll(index)) {
            return false;
        }
        if (select == Select.ALL_ATTRIBUTES) {
            return true;
        }
        for (String name : namesRead) {
            if (!IndexEntries.projects(table, index, name)) {
                return true;
            }
        }
        return false;
    }

    List<String> partitionKeyNames() {
        return index == null ? List.of(table.hashKeyName()) : index.hashKeyNames();
    }

    List<String> sortKeyNames() {
        if (index != null) {
            return index.rangeKeyNames();
        }
        return table.rangeKeyName() == null ? List.of() : List.of(table.rangeKeyName());
    }

    /** The key attributes a filter may not name in a Query (they belong in the key condition). */
    Set<String> keyNames() {
        Set<String> names = new LinkedHashSet<>(partitionKeyNames());
        names.addAll(sortKeyNames());
        return names;
    }

    /** The attributes of a LastEvaluatedKey or ExclusiveStartKey: table key, then index key. */
    List<String> startKeyNames() {
        List<String> names = new ArrayList<>(4);
        names.add(table.hashKeyName());
        if (table.rangeKeyName() != null) {
            names.add(table.rangeKeyName());
        }
        if (index != null) {
            for (KeySchemaElement k : index.keySchema()) {
                if (!names.contains(k.attributeName())) {
                    names.add(k.attributeName());
                }
            }
        }
        return names;
    }

    byte space() {
        return index == null ? KeySpace.ITEMS : KeySpace.INDEX;
    }

    int id() {
        return index == null ? table.id() : index.id();
    }

    /** The store prefix of the entries a key condition selects before its last sort condition. */
    byte[] queryPrefix(KeyCondition key) {
        byte[] partition = index == null
                ? ItemKey.partitionPrefix(table.id(), key.partitionKeyValue())
                : IndexKey.partitionPrefix(index.id(), key.partitionKeyValues());
        if (key.sortKeyEqualities().isEmpty()) {
            return partition;
        }
        ByteSink out = new ByteSink(partition.length + 32).put(partition);
        key.sortKeyEqualities().forEach(v -> KeyEncoding.encode(out, v));
        return out.toArray();
    }

    /** The storage key of an entry whose key attributes are {@code key} (already validated). */
    byte[] storageKey(Map<String, AttributeValue> key) {
        String range = table.rangeKeyName();
        AttributeValue tableSort = range == null ? null : key.get(range);
        if (index == null) {
            return ItemKey.of(table.id(), table.hashKeyOf(key), tableSort);
        }
        List<AttributeValue> hash = new ArrayList<>(1);
        List<AttributeValue> sort = new ArrayList<>(1);
        for (KeySchemaElement k : index.keySchema()) {
            (k.keyType() == KeyType.HASH ? hash : sort).add(key.get(k.attributeName()));
        }
        return IndexKey.of(index.id(), hash, sort, table.hashKeyOf(key), tableSort);
    }

    Map<String, AttributeValue> lastEvaluatedKey(Map<String, AttributeValue> entry) {
        List<String> names = startKeyNames();
        Map<String, AttributeValue> key = new LinkedHashMap<>(names.size() * 2);
        for (String name : names) {
            key.put(name, entry.get(name));
        }
        return key;
    }
}
