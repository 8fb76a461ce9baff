package dev.kumiko.engine.insights;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most frequent keys of a stream of events in a fixed amount of memory: the Space-Saving
 * algorithm (Metwally, Agrawal, El Abbadi, 2005). It keeps at most {@code capacity} keys with a
 * count each; a key not kept takes the place of the key with the smallest count and inherits that
 * count plus one, remembering the inherited part as its possible overestimate. Every key whose true
 * count exceeds {@code total / capacity} is kept, and a kept key's count is at most its overestimate
 * above its true count.
 *
 * <p>The counts live in an indexed binary min-heap, so an event costs one hash lookup and
 * O(log capacity) swaps, whether its key is kept or replaces the smallest. Not thread-safe: the
 * caller serializes (one lock per table or index whose keys are counted).
 */
public final class TopKeys<K> {
    /** A key, its count, and how much of that count it may have inherited from keys it displaced. */
    public record Counted<K>(K key, long count, long overestimate) {}

    private final int capacity;
    private final Object[] keys;
    private final long[] counts;
    private final long[] overestimates;
    /** Key → its slot in the heap arrays. */
    private final Map<K, Integer> slots;

    private int size;
    private long total;

    public TopKeys(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
        this.keys = new Object[capacity];
        this.counts = new long[capacity];
        this.overestimates = new long[capacity];
        this.slots = new HashMap<>(capacity * 2);
    }

    /** Counts one event of {@code key}. */
    public void add(K key) {
        total++;
        Integer slot = slots.get(key);
        if (slot != null) {
            counts[slot]++;
            siftDown(slot);
        } else if (size < capacity) {
            int i = size++;
            put(i, key, 1, 0);
            siftUp(i);
        } else {
            // The root holds the smallest count: its key gives way.
            slots.remove(keyAt(0));
            long inherited = counts[0];
            put(0, key, inherited + 1, inherited);
            siftDown(0);
        }
        assert size <= capacity && slots.size() == size : "heap and index agree";
    }

    /** Events counted since this was made, kept keys or not. */
    public long total() {
        return total;
    }

    /** Keys kept now (at most the capacity). */
    public int size() {
        return size;
    }

    /** The {@code limit} keys with the largest counts, largest first (ties in no particular order). */
    public List<Counted<K>> top(int limit) {
        List<Counted<K>> all = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            all.add(new Counted<>(keyAt(i), counts[i], overestimates[i]));
        }
        all.sort((a, b) -> Long.compare(b.count(), a.count()));
        return List.copyOf(all.subList(0, Math.min(Math.max(limit, 0), all.size())));
    }

    private void put(int i, K key, long count, long overestimate) {
        keys[i] = key;
        counts[i] = count;
        overestimates[i] = overestimate;
        slots.put(key, i);
    }

    @SuppressWarnings("unchecked")
    private K keyAt(int i) {
        return (K) keys[i];
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (counts[parent] <= counts[i]) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int right = left + 1;
            int smaller = right < size && counts[right] < counts[left] ? right : left;
            if (counts[i] <= counts[smaller]) {
                return;
            }
            swap(i, smaller);
            i = smaller;
        }
    }

    private void swap(int a, int b) {
        Object k = keys[a];
        keys[a] = keys[b];
        keys[b] = k;
        long c = counts[a];
        counts[a] = counts[b];
        counts[b] = c;
        long o = overestimates[a];
        overestimates[a] = overestimates[b];
        overestimates[b] = o;
        slots.put(keyAt(a), a);
        slots.put(keyAt(b), b);
    }
}
