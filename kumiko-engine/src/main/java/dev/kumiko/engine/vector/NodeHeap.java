package dev.kumiko.engine.vector;

import java.util.Arrays;

/**
 * A binary heap of (distance, node) pairs on primitive arrays, ordered smallest-first or
 * largest-first: the candidate and result queues of a graph search, without boxing.
 */
final class NodeHeap {
    private final boolean maxFirst;
    private float[] distances;
    private int[] nodes;
    private int size;

    NodeHeap(int capacity, boolean maxFirst) {
        this.maxFirst = maxFirst;
        this.distances = new float[Math.max(4, capacity)];
        this.nodes = new int[Math.max(4, capacity)];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    float topDistance() {
        return distances[0];
    }

    int topNode() {
        return nodes[0];
    }

    void push(float distance, int node) {
        if (size == distances.length) {
            distances = Arrays.copyOf(distances, size * 2);
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(distance, distances[parent])) {
                break;
            }
            distances[i] = distances[parent];
            nodes[i] = nodes[parent];
            i = parent;
        }
        distances[i] = distance;
        nodes[i] = node;
    }

    /** Removes the top; read it first with {@link #topDistance} and {@link #topNode}. */
    void pop() {
        assert size > 0;
        size--;
        if (size == 0) {
            return;
        }
        float d = distances[size];
        int n = nodes[size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(distances[child + 1], distances[child])) {
                child++;
            }
            if (!before(distances[child], d)) {
                break;
            }
            distances[i] = distances[child];
            nodes[i] = nodes[child];
            i = child;
        }
        distances[i] = d;
        nodes[i] = n;
    }

    private boolean before(float a, float b) {
        return maxFirst ? a > b : a < b;
    }
}
