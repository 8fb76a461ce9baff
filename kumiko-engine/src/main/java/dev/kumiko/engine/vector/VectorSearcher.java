package dev.kumiko.engine.vector;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * The seam between vector indexes and the nearest-neighbour structure that answers them. The
 * engine's own is {@link ExactSearcher} (a scan, exact); an approximate one (an HNSW graph) is
 * found through {@link java.util.ServiceLoader} as a {@link Factory}, so the engine carries no
 * dependency. Ids are the index's small non-negative ints. Callers serialize writes against
 * searches (one index's lock), so an implementation need not be thread-safe for writes.
 */
public interface VectorSearcher {
    /** Adds the vector under id, or replaces the one it had. */
    void put(int id, float[] vector);

    /** Forgets id; nothing happens if it has no vector. */
    void remove(int id);

    /** How many vectors it holds. */
    int size();

    /**
     * Up to k ids closest to query among those accept lets through, closest first, each with its
     * score as {@link VectorDistance#score} gives it.
     */
    List<Hit> search(float[] query, int k, IntPredicate accept);

    /** About how many bytes of heap it holds per vector (reported by the benchmark). */
    long bytesPerVector();

    record Hit(int id, float score) {}

    /** Makes searchers for an index's dimensions and distance function. */
    interface Factory {
        /** A short name, for logs and benchmarks ("exact", "hnsw"). */
        String name();

        VectorSearcher create(int dimensions, VectorDistance distance);
    }
}
