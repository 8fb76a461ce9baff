package dev.kumiko.vector.lucene;

import dev.kumiko.engine.vector.VectorDistance;
import dev.kumiko.engine.vector.VectorSearcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Lucene's on-heap HNSW graph (the one its codecs build per segment) over Kumiko's vectors, with
 * the same graph parameters as {@link dev.kumiko.engine.vector.HnswSearcher} (M 16, build beam 100,
 * search beam 96). Lucene's graphs cannot drop a node: a removed vector is a tombstone left out
 * through the accept bits, as Kumiko's own searcher does it.
 */
public final class LuceneHnswSearcher implements VectorSearcher {
    static final int M = 16;
    static final int BEAM_WIDTH = 100;
    static final int EF_SEARCH = 96;

    public static final Factory FACTORY = new Factory() {
        @Override
        public String name() {
            return "lucene-hnsw";
        }

        @Override
        public VectorSearcher create(int dimensions, VectorDistance distance) {
            return new LuceneHnswSearcher(dimensions, distance);
        }
    };

    private final VectorDistance distance;
    private final VectorSimilarityFunction similarity;
    private final List<float[]> vectors = new ArrayList<>();
    private final RandomAccessVectorValues.Floats values;
    private final HnswGraphBuilder builder;
    private int[] ordIds = new int[16];
    private int[] idOrds = new int[16]; // id -> ord + 1
    private FixedBitSet live = new FixedBitSet(16);
    private int size;

    public LuceneHnswSearcher(int dimensions, VectorDistance distance) {
        this.distance = distance;
        this.similarity = switch (distance) {
            case COSINE -> VectorSimilarityFunction.COSINE;
            case EUCLIDEAN -> VectorSimilarityFunction.EUCLIDEAN;
            // Lucene's DOT_PRODUCT wants unit vectors; this one takes any.
            case DOT_PRODUCT -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        };
        this.values = RandomAccessVectorValues.fromFloats(vectors, dimensions);
        try {
            this.builder = HnswGraphBuilder.create(
                    DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorerSupplier(similarity, values),
                    M,
                    BEAM_WIDTH,
                    42);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void put(int id, float[] vector) {
        remove(id);
        int ord = vectors.size();
        vectors.add(vector.clone());
        if (ord >= ordIds.length) {
            ordIds = Arrays.copyOf(ordIds, ord * 2);
        }
        ordIds[ord] = id;
        if (id >= idOrds.length) {
            idOrds = Arrays.copyOf(idOrds, Math.max(id + 1, idOrds.length * 2));
        }
        idOrds[id] = ord + 1;
        live = FixedBitSet.ensureCapacity(live, ord);
        live.set(ord);
        size++;
        try {
            builder.addGraphNode(ord);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void remove(int id) {
        if (id < idOrds.length && idOrds[id] != 0) {
            live.clear(idOrds[id] - 1);
            idOrds[id] = 0;
            size--;
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public List<Hit> search(float[] query, int k, IntPredicate accept) {
        if (vectors.isEmpty()) {
            return List.of();
        }
        FixedBitSet liveNow = live;
        Bits acceptOrds = new Bits() {
            @Override
            public boolean get(int ord) {
                return ord < liveNow.length() && liveNow.get(ord) && accept.test(ordIds[ord]);
            }

            @Override
            public int length() {
                return vectors.size();
            }
        };
        try {
            RandomVectorScorer scorer =
                    DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(similarity, values, query);
            KnnCollector c = HnswGraphSearcher.search(
                    scorer, Math.max(k, EF_SEARCH), builder.getGraph(), acceptOrds, Integer.MAX_VALUE);
            ScoreDoc[] docs = c.topDocs().scoreDocs;
            List<Hit> out = new ArrayList<>(Math.min(k, docs.length));
            for (int i = 0; i < docs.length && out.size() < k; i++) {
                int ord = docs[i].doc;
                out.add(new Hit(ordIds[ord], distance.score(query, vectors.get(ord))));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long bytesPerVector() {
        return 4L * values.dimension() + 4L * (2 * M + 1) + 64;
    }
}
