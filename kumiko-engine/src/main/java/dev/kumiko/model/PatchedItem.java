package dev.kumiko.model;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An item as an update leaves it: the item before (the base, not changed) and the top-level
 * attributes the update set or removed. An UpdateItem touches a few attributes of an item it read
 * from the store, so this keeps the rest as the base holds them: the base's values are read only
 * by name, its size comes from its stored header ({@link SizedItem}), and the item codec copies the
 * untouched attributes' stored bytes ({@code ItemCodec.encode}). A copy of the whole item into a
 * new map would decode every attribute of it.
 *
 * <p>The order of its attributes is the base's, a set attribute in its place, then the added ones
 * in the order they were set: what a copy of the base with the same puts and removes would hold.
 * The changes and the base's values read so far are kept in small arrays, searched in order: an
 * update changes a few attributes. One request's thread uses it; it is not safe for concurrent use.
 */
public final class PatchedItem extends AbstractMap<String, AttributeValue> implements SizedItem {
    private static final int START_SLOTS = 4;
    /** Base values kept after their first read; past this many, reads go to the base each time. */
    private static final int BASE_READS_KEPT_MAX = 16;

    private final Map<String, AttributeValue> base;
    /** The changed attributes in the order first changed: a new value, or null for a removed one. */
    private String[] changedNames = new String[START_SLOTS];

    private AttributeValue[] changedValues = new AttributeValue[START_SLOTS];
    /** Whether a change was a removal and then a set again, which a map's remove and put move last. */
    private boolean[] movedToEnd = new boolean[START_SLOTS];

    private int changeCount;
    /** The base's values read so far by name (null: the base has none), each read once. */
    private String[] readNames = new String[START_SLOTS];

    private AttributeValue[] readValues = new AttributeValue[START_SLOTS];
    private int readCount;
    /** The whole item, built when someone walks it; dropped by the next change. */
    private @Nullable Map<String, AttributeValue> merged;

    public PatchedItem(Map<String, AttributeValue> base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /** The item before the changes. */
    public Map<String, AttributeValue> base() {
        return base;
    }

    /** The number of changed attributes; {@link #changedName} and {@link #changedValue} take 0 to it. */
    public int changeCount() {
        return changeCount;
    }

    public String changedName(int i) {
        assert i >= 0 && i < changeCount : i;
        return changedNames[i];
    }

    /** The changed attribute's new value, or null if it was removed. */
    public AttributeValue changedValue(int i) {
        assert i >= 0 && i < changeCount : i;
        return changedValues[i];
    }

    /**
     * Whether the changed attribute was removed and then set again: it then follows the base's
     * attributes, where a copy of the base would have it after the same remove and put.
     */
    public boolean movedToEnd(int i) {
        assert i >= 0 && i < changeCount : i;
        return movedToEnd[i];
    }

    /** Whether the base holds the attribute, whatever the changes did to it. */
    public boolean baseHolds(String name) {
        return baseValue(name) != null;
    }

    /** The attribute's value in the base, whatever the changes did to it; null if it has none. */
    public @Nullable AttributeValue baseValue(String name) {
        for (int i = 0; i < readCount; i++) {
            if (readNames[i].equals(name)) {
                return readValues[i];
            }
        }
        AttributeValue v = base.get(name);
        if (readCount < BASE_READS_KEPT_MAX) {
            if (readCount == readNames.length) {
                readNames = Arrays.copyOf(readNames, readCount * 2);
                readValues = Arrays.copyOf(readValues, readCount * 2);
            }
            readNames[readCount] = name;
            readValues[readCount++] = v;
        }
        return v;
    }

    private int changeIndex(String name) {
        for (int i = 0; i < changeCount; i++) {
            if (changedNames[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public @Nullable AttributeValue get(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        int i = changeIndex(name);
        return i >= 0 ? changedValues[i] : baseValue(name);
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null; // an item holds no null values
    }

    @Override
    public @Nullable AttributeValue put(String name, AttributeValue value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        int i = changeIndex(name);
        AttributeValue before = i >= 0 ? changedValues[i] : baseValue(name);
        if (i >= 0 && before == null) {
            drop(i); // removed before: set again, it goes last
            append(name, value, true);
        } else if (i >= 0) {
            changedValues[i] = value;
        } else {
            append(name, value, false);
        }
        merged = null;
        return before;
    }

    @Override
    public @Nullable AttributeValue remove(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        int i = changeIndex(name);
        AttributeValue before = i >= 0 ? changedValues[i] : baseValue(name);
        if (before != null && i >= 0) {
            changedValues[i] = null;
        } else if (before != null) {
            append(name, null, false);
        }
        merged = null;
        return before;
    }

    private void append(String name, @Nullable AttributeValue value, boolean moved) {
        if (changeCount == changedNames.length) {
            changedNames = Arrays.copyOf(changedNames, changeCount * 2);
            changedValues = Arrays.copyOf(changedValues, changeCount * 2);
            movedToEnd = Arrays.copyOf(movedToEnd, changeCount * 2);
        }
        changedNames[changeCount] = name;
        changedValues[changeCount] = value;
        movedToEnd[changeCount++] = moved;
    }

    private void drop(int i) {
        int after = changeCount - i - 1;
        System.arraycopy(changedNames, i + 1, changedNames, i, after);
        System.arraycopy(changedValues, i + 1, changedValues, i, after);
        System.arraycopy(movedToEnd, i + 1, movedToEnd, i, after);
        changeCount--;
        changedNames[changeCount] = null;
        changedValues[changeCount] = null;
    }

    /**
     * The base's size with each changed attribute's old size taken off and its new one added: the
     * base's stored size, where it has one, so the untouched attributes are not walked.
     */
    @Override
    public long sizeBytes() {
        if (!(base instanceof SizedItem sized)) {
            return ItemSize.of(merged());
        }
        long total = sized.sizeBytes();
        for (int i = 0; i < changeCount; i++) {
            AttributeValue before = baseValue(changedNames[i]);
            if (before != null) {
                total -= ItemSize.attribute(changedNames[i], before);
            }
            if (changedValues[i] != null) {
                total += ItemSize.attribute(changedNames[i], changedValues[i]);
            }
        }
        assert total >= 0 : total;
        return total;
    }

    @Override
    public int size() {
        return merged().size();
    }

    @Override
    public Set<Entry<String, AttributeValue>> entrySet() {
        return Collections.unmodifiableMap(merged()).entrySet();
    }

    private Map<String, AttributeValue> merged() {
        Map<String, AttributeValue> m = merged;
        if (m == null) {
            m = new LinkedHashMap<>(Math.max(8, (base.size() + changeCount) * 4 / 3 + 1));
            for (Map.Entry<String, AttributeValue> e : base.entrySet()) {
                int i = changeIndex(e.getKey());
                if (i < 0) {
                    m.put(e.getKey(), e.getValue());
                } else if (changedValues[i] != null && !movedToEnd[i]) {
                    m.put(e.getKey(), changedValues[i]);
                }
            }
            for (int i = 0; i < changeCount; i++) {
                if (changedValues[i] != null) {
                    m.putIfAbsent(changedNames[i], changedValues[i]);
                }
            }
            merged = m;
        }
        return m;
    }
}
