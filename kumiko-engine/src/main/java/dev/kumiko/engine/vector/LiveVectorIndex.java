package dev.kumiko.engine.vector;

import dev.kumiko.model.AttributeValue;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One vector index in memory: its searcher, the item each id stands for (its storage key) and the
 * item's SearchSchema attributes (what an inline filter is evaluated on). It is derived data: built
 * from the table's items when the index is created or the store opened, then kept current by the
 * write path through a queue ({@link #offer}), which the applier thread and every search drain.
 * Changes to the searcher take the write lock, searches the read lock.
 */
final class LiveVectorIndex {
    /** How long a search waits for an index that is being loaded at open before answering. */
    static final long LOAD_WAIT_MILLIS = 30_000;

    private volatile VectorIndexDefinition definition;
    private final VectorSearcher searcher;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<ByteBuffer, Integer> ids = new HashMap<>();
    private final Map<Integer, Entry> entries = new HashMap<>();
    private final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
    private int nextId;
    private final CountDownLatch loaded = new CountDownLatch(1);
    // Keys the write path touched while a load runs: the load's older copy of them is dropped.
    private @Nullable Set<ByteBuffer> touchedDuringLoad = new HashSet<>();

    /** What the index holds about one item. */
    record Entry(byte[] storageKey, Map<String, AttributeValue> schemaAttributes) {}

    LiveVectorIndex(VectorIndexDefinition definition, VectorSearcher.Factory factory) {
        this.definition = definition;
        this.searcher = factory.create(definition.dimensions(), definition.distance());
    }

    VectorIndexDefinition definition() {
        return definition;
    }

    void setDefinition(VectorIndexDefinition d) {
        this.definition = d;
    }

    /** A change the write path handed over, not yet in the searcher. */
    private record Pending(byte[] storageKey, @Nullable Map<String, AttributeValue> item) {}

    /**
     * Changes waiting beyond this many make the writer apply them itself: the write path slows to
     * the index's pace instead of the queue growing without bound.
     */
    static final int PENDING_MAX = 50_000;

    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingCount = new AtomicInteger();

    /**
     * The write path's change to one item (newItem null: deleted), queued: the graph work happens
     * on the applier thread (or the next search), not in the writer's transaction. Called inside
     * the writer's store transaction, so one item's changes queue in commit order. True when the
     * caller should wake the applier.
     */
    boolean offer(byte[] storageKey, @Nullable Map<String, AttributeValue> newItem) {
        pending.add(new Pending(storageKey, newItem));
        if (pendingCount.incrementAndGet() > PENDING_MAX) {
            drain();
            return false;
        }
        return true;
    }

    boolean hasPending() {
        return pendingCount.get() > 0;
    }

    /** Applies every queued change: searches call it first, so a search sees every write that returned. */
    void drain() {
        if (pendingCount.get() == 0) {
            return;
        }
        lock.writeLock().lock();
        try {
            Pending p;
            while ((p = pending.poll()) != null) {
                pendingCount.decrementAndGet();
                ByteBuffer key = ByteBuffer.wrap(p.storageKey());
                if (touchedDuringLoad != null) {
                    touchedDuringLoad.add(key);
                }
                applyLocked(key, p.storageKey(), p.item());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A load's copy of one item, ignored when the write path changed the item since the load began. */
    void load(byte[] storageKey, Map<String, AttributeValue> item) {
        lock.writeLock().lock();
        try {
            ByteBuffer key = ByteBuffer.wrap(storageKey);
            if (touchedDuringLoad != null && touchedDuringLoad.contains(key)) {
                return;
            }
            applyLocked(key, storageKey, item);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void loadFinished() {
        lock.writeLock().lock();
        try {
            touchedDuringLoad = null;
        } finally {
            lock.writeLock().unlock();
        }
        loaded.countDown();
    }

    boolean isLoaded() {
        return loaded.getCount() == 0;
    }

    /** Waits (bounded) for a load at open to finish, so a search right after a restart sees every item. */
    void awaitLoaded() {
        try {
            loaded.await(LOAD_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void applyLocked(ByteBuffer key, byte[] storageKey, @Nullable Map<String, AttributeValue> item) {
        VectorIndexDefinition d = definition;
        float[] vector = item == null ? null : VectorValues.of(item.get(d.vectorAttribute()), d.dimensions());
        if (vector != null && item != null && hasPartitionKey(d, item)) {
            Integer id = ids.get(key);
            if (id == null) {
                id = freeIds.isEmpty() ? nextId++ : freeIds.pop();
                ids.put(key, id);
            }
            entries.put(id, new Entry(storageKey, schemaAttributes(d, item)));
            searcher.put(id, vector);
            return;
        }
        Integer id = ids.remove(key);
        if (id != null) {
            entries.remove(id);
            searcher.remove(id);
            freeIds.push(id);
        }
    }

    /** An index with a HASH search schema element holds only items that have that attribute (as a GSI). */
    private static boolean hasPartitionKey(VectorIndexDefinition d, Map<String, AttributeValue> item) {
        for (SearchSchemaElement e : d.searchSchema()) {
            if (e.type() == SearchSchemaElement.Type.HASH && !item.containsKey(e.attributeName())) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, AttributeValue> schemaAttributes(
            VectorIndexDefinition d, Map<String, AttributeValue> item) {
        if (d.searchSchema().isEmpty()) {
            return Map.of();
        }
        Map<String, AttributeValue> out = new HashMap<>();
        for (SearchSchemaElement e : d.searchSchema()) {
            AttributeValue v = item.get(e.attributeName());
            if (v != null) {
                out.put(e.attributeName(), v);
            }
        }
        return out;
    }

    /** A found item: its storage key and score. */
    record Found(byte[] storageKey, float score) {}

    /** The k nearest items whose SearchSchema attributes pass filter, nearest first. */
    List<Found> search(float[] query, int k, Predicate<Map<String, AttributeValue>> filter) {
        drain();
        lock.readLock().lock();
        try {
            List<VectorSearcher.Hit> hits = searcher.search(query, k, id -> {
                Entry e = entries.get(id);
                return e != null && filter.test(e.schemaAttributes());
            });
            List<Found> out = new java.util.ArrayList<>(hits.size());
            for (VectorSearcher.Hit h : hits) {
                Entry e = entries.get(h.id());
                if (e != null) {
                    out.add(new Found(e.storageKey(), h.score()));
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    int itemCount() {
        lock.readLock().lock();
        try {
            return searcher.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    long sizeBytes() {
        return (long) itemCount() * searcher.bytesPerVector();
    }
}
