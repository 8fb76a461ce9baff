package dev.kumiko.engine.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;

/**
 * The exact searcher: every vector is scored against the query. Vectors are kept in one packed
 * float array (slot-major), ids map to slots, and a removal moves the last slot into the hole, so
 * a scan touches dimensions * size floats and nothing else.
 */
public final class ExactSearcher implements VectorSearcher {
    /** The engine's default factory. */
    public static final Factory FACTORY = new Factory() {
        @Override
        public String name() {
            return "exact";
        }

        @Override
        public VectorSearcher create(int dimensions, VectorDistance distance) {
            return new ExactSearcher(dimensions, distance);
        }
    };

    private final int dimensions;
    private final VectorDistance distance;
    private float[] vectors;
    private int[] slotIds;
    private int[] idSlots = new int[16]; // id -> slot + 1; 0 = none
    private int size;

    public ExactSearcher(int dimensions, VectorDistance distance) {
        this.dimensions = dimensions;
        this.distance = distance;
        this.vectors = new float[dimensions * 16];
        this.slotIds = new int[16];
    }

    @Override
    public void put(int id, float[] vector) {
        assert vector.length == dimensions && id >= 0;
        int slot = slotOf(id);
        if (slot < 0) {
            slot = size++;
            grow();
            slotIds[slot] = id;
            if (id >= idSlots.length) {
                idSlots = Arrays.copyOf(idSlots, Math.max(id + 1, idSlots.length * 2));
            }
            idSlots[id] = slot + 1;
        }
        System.arraycopy(vector, 0, vectors, slot * dimensions, dimensions);
    }

    @Override
    public void remove(int id) {
        int slot = slotOf(id);
        if (slot < 0) {
            return;
        }
        int last = --size;
        if (slot != last) {
            System.arraycopy(vectors, last * dimensions, vectors, slot * dimensions, dimensions);
            slotIds[slot] = slotIds[last];
            idSlots[slotIds[slot]] = slot + 1;
        }
        idSlots[id] = 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public List<Hit> search(float[] query, int k, IntPredicate accept) {
        // A max-heap on rank of the k best so far: its head is the one to drop.
        PriorityQueue<Hit> best =
                new PriorityQueue<>(k + 1, (a, b) -> Float.compare(distance.rank(b.score()), distance.rank(a.score())));
        float[] v = new float[dimensions];
        for (int slot = 0; slot < size; slot++) {
            int id = slotIds[slot];
            if (!accept.test(id)) {
                continue;
            }
            System.arraycopy(vectors, slot * dimensions, v, 0, dimensions);
            float score = distance.score(query, v);
            if (best.size() < k) {
                best.add(new Hit(id, score));
            } else if (distance.rank(score) < distance.rank(best.peek().score())) {
                best.poll();
                best.add(new Hit(id, score));
            }
        }
        List<Hit> out = new ArrayList<>(best);
        out.sort((a, b) -> Float.compare(distance.rank(a.score()), distance.rank(b.score())));
        return out;
    }

    @Override
    public long bytesPerVector() {
        return 4L * dimensions + 8;
    }

    private int slotOf(int id) {
        return id < idSlots.length ? idSlots[id] - 1 : -1;
    }

    private void grow() {
        if (size > slotIds.length) {
            slotIds = Arrays.copyOf(slotIds, slotIds.length * 2);
            vectors = Arrays.copyOf(vectors, slotIds.length * dimensions);
        }
    }
}
