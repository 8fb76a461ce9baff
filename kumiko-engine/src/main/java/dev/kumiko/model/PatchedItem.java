package dev.kumiko.model;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An item as an update leaves it: the item before (the base, not changed) and the top-level
 * attributes the update set or removed. An UpdateItem touches a few attributes of an item it read
 * from the store, so this keeps the rest as the base holds them: the base's values are read only
 * by name, its size comes from its stored header ({@link SizedItem}), and the item codec copies the
 * untouched attributes' stored bytes ({@code ItemCodec.encode}). Copying the whole item into a new
 * map, as an update did before, decoded every attribute of it.
 *
 * <p>The order of its attributes is the base's, a set attribute in its place, then the added ones
 * in the order they were set: what a copy of the base with the same puts and removes would hold.
 * One request's thread uses it; it is not safe for concurrent use.
 */
public final class PatchedItem extends java.util.AbstractMap<String, AttributeValue> implements SizedItem {
    private final Map<String, AttributeValue> base;
    /** Name → new value, or null for a removed attribute; in the order first changed. */
    private final LinkedHashMap<String, AttributeValue> changes = new LinkedHashMap<>(8);
    /** The base's values read so far by name (null: the base has none), each read once. */
    private final HashMap<String, AttributeValue> baseReads = new HashMap<>(8);
    /** Names removed and then set again, which a map's remove and put move to the end; null: none. */
    private Set<String> movedToEnd;
    /** The whole item, built when someone walks it; dropped by the next change. */
    private Map<String, AttributeValue> merged;

    public PatchedItem(Map<String, AttributeValue> base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    /** The item before the changes. */
    public Map<String, AttributeValue> base() {
        return base;
    }

    /** The changed attributes in the order first changed, each with its new value or null (removed). */
    public Map<String, AttributeValue> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /**
     * Whether the attribute was removed and then set again: it then follows the base's attributes,
     * where a copy of the base would have it after the same remove and put.
     */
    public boolean movedToEnd(String name) {
        return movedToEnd != null && movedToEnd.contains(name);
    }

    /** Whether the base holds the attribute, whatever the changes did to it. */
    public boolean baseHolds(String name) {
        return baseValue(name) != null;
    }

    private AttributeValue baseValue(String name) {
        AttributeValue v = baseReads.get(name);
        if (v == null && !baseReads.containsKey(name)) {
            v = base.get(name);
            baseReads.put(name, v);
        }
        return v;
    }

    @Override
    public AttributeValue get(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        return changes.containsKey(name) ? changes.get(name) : baseValue(name);
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null; // an item holds no null values
    }

    @Override
    public AttributeValue put(String name, AttributeValue value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        AttributeValue before = get(name);
        if (before == null && changes.containsKey(name)) {
            changes.remove(name); // removed before: set again, it goes last
            if (movedToEnd == null) {
                movedToEnd = new HashSet<>();
            }
            movedToEnd.add(name);
        }
        changes.put(name, value);
        merged = null;
        return before;
    }

    @Override
    public AttributeValue remove(Object key) {
        AttributeValue before = get(key);
        if (before != null) {
            changes.put((String) key, null);
            merged = null;
        }
        return before;
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
        for (Map.Entry<String, AttributeValue> e : changes.entrySet()) {
            AttributeValue before = baseValue(e.getKey());
            if (before != null) {
                total -= ItemSize.attribute(e.getKey(), before);
            }
            if (e.getValue() != null) {
                total += ItemSize.attribute(e.getKey(), e.getValue());
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
            m = new LinkedHashMap<>(Math.max(8, (base.size() + changes.size()) * 4 / 3 + 1));
            for (Map.Entry<String, AttributeValue> e : base.entrySet()) {
                String name = e.getKey();
                AttributeValue v = changes.containsKey(name) ? changes.get(name) : e.getValue();
                if (v != null && !movedToEnd(name)) {
                    m.put(name, v);
                }
            }
            for (Map.Entry<String, AttributeValue> e : changes.entrySet()) {
                if (e.getValue() != null) {
                    m.putIfAbsent(e.getKey(), e.getValue());
                }
            }
            merged = m;
        }
        return m;
    }
}
