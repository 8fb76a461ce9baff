package dev.kumiko.engine.capacity;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Sums the units one request consumes on one table: on the table itself and on each index, so
 * that ReturnConsumedCapacity=INDEXES can break the total down as DynamoDB does.
 *
 * <p>Every item write makes one (CapacityUnits.write), so the indexes' units are kept in three
 * small arrays, made at the first index and grown as needed, and found by a scan: a table has at
 * most 5 local and 20 global indexes (a batch's tally may straddle an UpdateTable, so that is no
 * hard bound). Two maps per tally, each with its table, entries and boxed sums, were about a
 * third of a kilobyte per item written.
 */
public final class CapacityTally {
    /** Index slots made at the first index: most writes touch one or two. */
    private static final int INDEXES_INITIAL = 2;

    private static final String[] NO_NAMES = {};
    private static final boolean[] NO_FLAGS = {};
    private static final double[] NO_UNITS = {};

    private final String tableName;
    private final boolean read;
    private double table;
    /** Index names in the order first counted; the shared empty arrays until an index is counted. */
    private String[] indexNames = NO_NAMES;

    private boolean[] globalIndexes = NO_FLAGS;
    private double[] indexUnits = NO_UNITS;
    private int indexCount;

    public CapacityTally(String tableName, boolean read) {
        this.tableName = tableName;
        this.read = read;
    }

    public CapacityTally addTable(double units) {
        table += units;
        return this;
    }

    public CapacityTally addIndex(IndexDescriptor x, double units) {
        return addIndex(x.indexName(), x.global(), units);
    }

    /** Adds units of an index by name (also for a tally read back from the store: a replayed token). */
    public CapacityTally addIndex(String indexName, boolean globalIndex, double units) {
        int i = indexOf(indexName, globalIndex);
        if (i < 0) {
            i = newIndex(indexName, globalIndex);
        }
        indexUnits[i] += units;
        return this;
    }

    /** Where the index is counted, or -1. Names are the descriptors' own strings, so most match by identity. */
    @SuppressWarnings("ReferenceEquality") // identity first, as the comment says; equals() decides
    private int indexOf(String indexName, boolean globalIndex) {
        for (int i = 0; i < indexCount; i++) {
            String name = indexNames[i];
            if ((name == indexName || name.equals(indexName)) && globalIndexes[i] == globalIndex) {
                return i;
            }
        }
        return -1;
    }

    private int newIndex(String indexName, boolean globalIndex) {
        if (indexNames.length == 0) {
            indexNames = new String[INDEXES_INITIAL];
            globalIndexes = new boolean[INDEXES_INITIAL];
            indexUnits = new double[INDEXES_INITIAL];
        } else if (indexCount == indexNames.length) {
            int grown = indexCount * 2;
            indexNames = Arrays.copyOf(indexNames, grown);
            globalIndexes = Arrays.copyOf(globalIndexes, grown);
            indexUnits = Arrays.copyOf(indexUnits, grown);
        }
        indexNames[indexCount] = indexName;
        globalIndexes[indexCount] = globalIndex;
        return indexCount++;
    }

    /** Adds everything another tally of the same table counted (batch operations). */
    public CapacityTally addAll(CapacityTally other) {
        assert other.tableName.equals(tableName) && other.read == read;
        table += other.table;
        for (int i = 0; i < other.indexCount; i++) {
            addIndex(other.indexNames[i], other.globalIndexes[i], other.indexUnits[i]);
        }
        return this;
    }

    /** Transactions consume twice the units of the same plain reads and writes. */
    public CapacityTally doubled() {
        table *= 2;
        for (int i = 0; i < indexCount; i++) {
            indexUnits[i] *= 2;
        }
        return this;
    }

    public double total() {
        double sum = table;
        for (int i = 0; i < indexCount; i++) {
            sum += indexUnits[i];
        }
        return sum;
    }

    public String tableName() {
        return tableName;
    }

    /** The report for ReturnConsumedCapacity {@code mode}, or null for NONE or absent. */
    public @Nullable ConsumedCapacity report(@Nullable ReturnConsumedCapacity mode) {
        if (!ReturnConsumedCapacity.reported(mode)) {
            return null;
        }
        double total = total();
        return new ConsumedCapacity(
                tableName,
                total,
                read ? total : null,
                read ? null : total,
                mode == ReturnConsumedCapacity.INDEXES,
                table,
                unitsOf(false),
                unitsOf(true));
    }

    /** The local or the global indexes' units by name, unmodifiable. */
    private Map<String, Double> unitsOf(boolean global) {
        Map<String, Double> out = new HashMap<>();
        for (int i = 0; i < indexCount; i++) {
            if (globalIndexes[i] == global) {
                out.put(indexNames[i], indexUnits[i]);
            }
        }
        return Map.copyOf(out);
    }
}
