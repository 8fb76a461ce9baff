package dev.kumiko.vector.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.vector.ExactSearcher;
import dev.kumiko.engine.vector.HnswSearcher;
import dev.kumiko.engine.vector.VectorDistance;
import dev.kumiko.engine.vector.VectorSearcher;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Kumiko's HnswSearcher against Lucene's HNSW, both against the exact search: recall@10 and query
 * latency on generated vectors (clustered Gaussians, which are harder than uniform noise). Small by
 * default; bench/vector/compare-searchers.sh runs it at 100,000 x 128 and 20,000 x 768 through
 * -Dvector.count and -Dvector.dimensions, and prints one line per searcher.
 */
class SearcherComparisonTest {
    private static final int K = 10;

    @Test
    void bothGraphsReachTheRecallTargetAndKumikosIsReported() {
        int count = Integer.getInteger("vector.count", 5000);
        int dimensions = Integer.getInteger("vector.dimensions", 64);
        int queries = Integer.getInteger("vector.queries", 200);
        VectorDistance distance = VectorDistance.valueOf(System.getProperty("vector.distance", "COSINE"));
        float[][] data = Data.clustered(count, dimensions, 1);
        float[][] qs = Data.clustered(queries, dimensions, 2);
        VectorSearcher exact = ExactSearcher.FACTORY.create(dimensions, distance);
        for (int i = 0; i < count; i++) {
            exact.put(i, data[i]);
        }
        int[][] truth = new int[queries][];
        for (int q = 0; q < queries; q++) {
            truth[q] = exact.search(qs[q], K, id -> true).stream()
                    .mapToInt(VectorSearcher.Hit::id)
                    .toArray();
        }
        Result exactResult = measure(ExactSearcher.FACTORY, data, qs, truth, distance);
        Result kumiko = measure(HnswSearcher.FACTORY, data, qs, truth, distance);
        Result lucene = measure(LuceneHnswSearcher.FACTORY, data, qs, truth, distance);
        for (Result r : List.of(exactResult, kumiko, lucene)) {
            System.out.printf(
                    "searcher=%s count=%d dimensions=%d distance=%s build_s=%.2f inserts_per_s=%.0f recall_at_10=%.4f "
                            + "query_p50_ms=%.3f query_p99_ms=%.3f%n",
                    r.name,
                    count,
                    dimensions,
                    distance,
                    r.buildSeconds,
                    count / r.buildSeconds,
                    r.recall,
                    r.p50Millis,
                    r.p99Millis);
        }
        assertThat(kumiko.recall).isGreaterThanOrEqualTo(0.95);
        assertThat(lucene.recall).isGreaterThanOrEqualTo(0.95);
    }

    record Result(String name, double buildSeconds, double recall, double p50Millis, double p99Millis) {}

    static Result measure(
            VectorSearcher.Factory f, float[][] data, float[][] qs, int[][] truth, VectorDistance distance) {
        VectorSearcher s = f.create(data[0].length, distance);
        long start = System.nanoTime();
        for (int i = 0; i < data.length; i++) {
            s.put(i, data[i]);
        }
        double build = (System.nanoTime() - start) / 1e9;
        for (int w = 0; w < Math.min(50, qs.length); w++) {
            s.search(qs[w], K, id -> true); // warm up the JIT
        }
        long[] nanos = new long[qs.length];
        int found = 0;
        for (int q = 0; q < qs.length; q++) {
            long t = System.nanoTime();
            List<VectorSearcher.Hit> hits = s.search(qs[q], K, id -> true);
            nanos[q] = System.nanoTime() - t;
            Set<Integer> want = new HashSet<>();
            for (int id : truth[q]) {
                want.add(id);
            }
            for (VectorSearcher.Hit h : hits) {
                found += want.contains(h.id()) ? 1 : 0;
            }
        }
        Arrays.sort(nanos);
        return new Result(
                f.name(),
                build,
                (double) found / (qs.length * K),
                nanos[nanos.length / 2] / 1e6,
                nanos[(int) (nanos.length * 0.99)] / 1e6);
    }

    /** Generated vectors: Gaussian clusters around random centres, like embeddings of topics. */
    static final class Data {
        static float[][] clustered(int count, int dimensions, long seed) {
            Random centres = new Random(99);
            int clusters = 64;
            float[][] c = new float[clusters][dimensions];
            for (float[] centre : c) {
                for (int d = 0; d < dimensions; d++) {
                    centre[d] = (float) centres.nextGaussian();
                }
            }
            Random r = new Random(seed);
            float[][] out = new float[count][dimensions];
            for (int i = 0; i < count; i++) {
                float[] centre = c[r.nextInt(clusters)];
                for (int d = 0; d < dimensions; d++) {
                    out[i][d] = centre[d] + 0.6f * (float) r.nextGaussian();
                }
            }
            return out;
        }
    }
}
