package dev.kumiko.engine.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The HNSW searcher against the exact one: recall, removals, replacements and filters. */
class HnswSearcherTest {
    private static final int DIMENSIONS = 32;
    private static final int VECTORS = 4000;
    private static final int QUERIES = 50;
    private static final int K = 10;

    static float[] vector(Random r) {
        float[] v = new float[DIMENSIONS];
        for (int d = 0; d < DIMENSIONS; d++) {
            v[d] = (float) r.nextGaussian();
        }
        return v;
    }

    static double recall(
            VectorSearcher approximate, VectorSearcher exact, Random r, java.util.function.IntPredicate accept) {
        int found = 0;
        int wanted = 0;
        for (int q = 0; q < QUERIES; q++) {
            float[] query = vector(r);
            Set<Integer> truth = new HashSet<>();
            exact.search(query, K, accept).forEach(h -> truth.add(h.id()));
            for (VectorSearcher.Hit h : approximate.search(query, K, accept)) {
                assertThat(accept.test(h.id())).isTrue();
                if (truth.contains(h.id())) {
                    found++;
                }
            }
            wanted += truth.size();
        }
        return (double) found / wanted;
    }

    @ParameterizedTest
    @EnumSource(VectorDistance.class)
    void findsWhatTheExactSearchFindsAfterRemovalsAndReplacements(VectorDistance distance) {
        Random r = new Random(7);
        VectorSearcher hnsw = HnswSearcher.FACTORY.create(DIMENSIONS, distance);
        VectorSearcher exact = ExactSearcher.FACTORY.create(DIMENSIONS, distance);
        for (int id = 0; id < VECTORS; id++) {
            float[] v = vector(r);
            hnsw.put(id, v);
            exact.put(id, v);
        }
        assertThat(recall(hnsw, exact, r, id -> true)).isGreaterThanOrEqualTo(0.95);
        // Remove a third, replace a third: tombstones never come back, replacements are found.
        for (int id = 0; id < VECTORS; id += 3) {
            hnsw.remove(id);
            exact.remove(id);
            float[] v = vector(r);
            hnsw.put(id + 1, v);
            exact.put(id + 1, v);
        }
        assertThat(hnsw.size()).isEqualTo(exact.size());
        assertThat(recall(hnsw, exact, r, id -> true)).isGreaterThanOrEqualTo(0.95);
        // A selective filter (1 in 50) still answers k accepted ids.
        assertThat(recall(hnsw, exact, r, id -> id % 50 == 1)).isGreaterThanOrEqualTo(0.95);
        List<VectorSearcher.Hit> hits = hnsw.search(vector(r), K, id -> true);
        for (int i = 1; i < hits.size(); i++) {
            assertThat(distance.rank(hits.get(i).score()))
                    .isGreaterThanOrEqualTo(distance.rank(hits.get(i - 1).score()));
        }
    }

    @ParameterizedTest
    @EnumSource(VectorDistance.class)
    void removingMostVectorsRebuildsTheGraph(VectorDistance distance) {
        Random r = new Random(11);
        VectorSearcher hnsw = HnswSearcher.FACTORY.create(DIMENSIONS, distance);
        VectorSearcher exact = ExactSearcher.FACTORY.create(DIMENSIONS, distance);
        for (int id = 0; id < VECTORS; id++) {
            float[] v = vector(r);
            hnsw.put(id, v);
            exact.put(id, v);
        }
        for (int id = 0; id < VECTORS; id++) {
            if (id % 4 != 0) {
                hnsw.remove(id);
                exact.remove(id);
            }
        }
        assertThat(hnsw.size()).isEqualTo(VECTORS / 4);
        assertThat(recall(hnsw, exact, r, id -> true)).isGreaterThanOrEqualTo(0.95);
    }
}
