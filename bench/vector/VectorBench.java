import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SearchResultItem;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;
import software.amazon.awssdk.services.dynamodb.model.VectorIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Vector search end to end, through the AWS SDK over HTTP against a Kumiko in this JVM:
 * BatchWriteItem ingest (until the index holds every vector), recall@10 of SearchVectors against
 * an exact search done here, SearchVectors TopK 10 latency at 8 concurrent clients, write-to-visible
 * latency, and the heap per vector. Arguments: count dimensions [store: ROCKSDB|MEMORY].
 * Run by bench/vector/run.sh.
 */
public class VectorBench {
    static final int CLIENTS = 8;
    static final int QUERIES = 200;
    static final int LATENCY_REQUESTS = 4000;
    static final int VISIBILITY_PROBES = 50;

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int dims = Integer.parseInt(args[1]);
        TestServer.StoreKind kind = TestServer.StoreKind.valueOf(args.length > 2 ? args[2] : "ROCKSDB");
        float[][] data = clustered(count, dims, 1);
        float[][] queries = clustered(QUERIES, dims, 2);
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            c.createTable(b -> b.tableName("vectors")
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .vectorIndexes(v -> v.indexName("emb-index")
                            .vectorAttribute(a -> a.attributeName("emb"))
                            .dimensions((long) dims)
                            .distanceFunction(VectorDistanceFunction.COSINE)
                            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
            long heapBefore = usedHeap();
            double[] ingest = ingest(server, data);
            long heapAfter = usedHeap();
            VectorIndexDescription idx = c.describeTable(b -> b.tableName("vectors")).table().vectorIndexes().get(0);
            double recall = recall(c, data, queries);
            double[] latency = latency(server, queries);
            double[] visible = writeToVisible(c, dims);
            System.out.printf(
                    "count=%d dimensions=%d store=%s ingest_items_per_s=%.0f indexed_items_per_s=%.0f recall_at_10=%.4f "
                            + "search_p50_ms=%.2f search_p99_ms=%.2f search_per_s=%.0f visible_p50_ms=%.1f visible_max_ms=%.1f "
                            + "heap_bytes_per_vector=%.0f index_bytes_per_vector=%.0f%n",
                    count, dims, kind, ingest[0], ingest[1], recall, latency[0], latency[1], latency[2], visible[0],
                    visible[1], (double) (heapAfter - heapBefore) / count,
                    (double) idx.indexSizeBytes() / Math.max(1, idx.itemCount()));
        }
        System.exit(0);
    }

    static double[] ingest(TestServer server, float[][] data) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < CLIENTS; t++) {
            done.add(pool.submit(() -> {
                DynamoDbClient c = server.newClient("us-east-1");
                int from;
                while ((from = next.getAndAdd(25)) < data.length) {
                    List<WriteRequest> batch = new ArrayList<>(25);
                    for (int i = from; i < Math.min(from + 25, data.length); i++) {
                        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("v" + i), "emb", list(data[i]));
                        batch.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
                    }
                    Map<String, List<WriteRequest>> left = Map.of("vectors", batch);
                    while (!left.isEmpty()) {
                        Map<String, List<WriteRequest>> ask = left;
                        left = c.batchWriteItem(b -> b.requestItems(ask)).unprocessedItems();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double written = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        DynamoDbClient c = server.client();
        // One search drains what the applier has not yet applied: then the index holds every vector.
        c.searchVectors(b -> b.tableName("vectors").indexName("emb-index").searchVector(list(data[0]).l()).topK(1));
        while (c.describeTable(b -> b.tableName("vectors")).table().vectorIndexes().get(0).itemCount() < data.length) {
            Thread.sleep(10);
        }
        double indexed = (System.nanoTime() - start) / 1e9;
        return new double[] {data.length / written, data.length / indexed};
    }

    static double recall(DynamoDbClient c, float[][] data, float[][] queries) {
        int found = 0;
        for (float[] q : queries) {
            Set<String> truth = exactTop10(data, q);
            for (SearchResultItem r : c.searchVectors(b -> b.tableName("vectors").indexName("emb-index")
                            .searchVector(list(q).l()).topK(10))
                    .searchResults()) {
                found += truth.contains(r.item().get("id").s()) ? 1 : 0;
            }
        }
        return found / (10.0 * queries.length);
    }

    static Set<String> exactTop10(float[][] data, float[] q) {
        double[] best = new double[10];
        int[] ids = new int[10];
        Arrays.fill(best, Double.MAX_VALUE);
        for (int i = 0; i < data.length; i++) {
            double d = cosineDistance(q, data[i]);
            if (d < best[9]) {
                int j = 9;
                while (j > 0 && best[j - 1] > d) {
                    best[j] = best[j - 1];
                    ids[j] = ids[j - 1];
                    j--;
                }
                best[j] = d;
                ids[j] = i;
            }
        }
        Set<String> out = new HashSet<>();
        for (int id : ids) {
            out.add("v" + id);
        }
        return out;
    }

    static double cosineDistance(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return 1 - dot / Math.sqrt(na * nb);
    }

    static double[] latency(TestServer server, float[][] queries) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        long[] nanos = new long[LATENCY_REQUESTS];
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < CLIENTS; t++) {
            done.add(pool.submit(() -> {
                DynamoDbClient c = server.newClient("us-east-1");
                int i;
                while ((i = next.getAndIncrement()) < LATENCY_REQUESTS) {
                    List<AttributeValue> q = list(queries[i % queries.length]).l();
                    long t0 = System.nanoTime();
                    c.searchVectors(b -> b.tableName("vectors").indexName("emb-index").searchVector(q).topK(10));
                    nanos[i] = System.nanoTime() - t0;
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        // The first requests warm the JIT and the connections: they are left out of the percentiles.
        long[] measured = Arrays.copyOfRange(nanos, LATENCY_REQUESTS / 10, LATENCY_REQUESTS);
        Arrays.sort(measured);
        return new double[] {
            measured[measured.length / 2] / 1e6, measured[(int) (measured.length * 0.99)] / 1e6, LATENCY_REQUESTS / seconds
        };
    }

    /** Puts an item with a new vector, then searches for that vector until the item is the nearest. */
    static double[] writeToVisible(DynamoDbClient c, int dims) throws Exception {
        Random r = new Random(5);
        double[] ms = new double[VISIBILITY_PROBES];
        for (int p = 0; p < VISIBILITY_PROBES; p++) {
            float[] v = new float[dims];
            for (int d = 0; d < dims; d++) {
                v[d] = (float) r.nextGaussian() * 10;
            }
            String id = "probe" + p;
            long t0 = System.nanoTime();
            c.putItem(b -> b.tableName("vectors").item(Map.of("id", AttributeValue.fromS(id), "emb", list(v))));
            while (true) {
                List<SearchResultItem> got = c.searchVectors(b -> b.tableName("vectors").indexName("emb-index")
                                .searchVector(list(v).l()).topK(1))
                        .searchResults();
                if (!got.isEmpty() && got.get(0).item().get("id").s().equals(id)) {
                    break;
                }
                if (System.nanoTime() - t0 > 10_000_000_000L) {
                    throw new IllegalStateException("a write was not visible within 10 s");
                }
            }
            ms[p] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return new double[] {ms[ms.length / 2], ms[ms.length - 1]};
    }

    static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    static AttributeValue list(float[] v) {
        List<AttributeValue> out = new ArrayList<>(v.length);
        for (float f : v) {
            out.add(AttributeValue.fromN(Float.toString(f)));
        }
        return AttributeValue.fromL(out);
    }

    /** Gaussian clusters around 64 random centres: like embeddings of topics, harder than noise. */
    static float[][] clustered(int count, int dims, long seed) {
        Random centres = new Random(99);
        float[][] c = new float[64][dims];
        for (float[] centre : c) {
            for (int d = 0; d < dims; d++) {
                centre[d] = (float) centres.nextGaussian();
            }
        }
        Random r = new Random(seed);
        float[][] out = new float[count][dims];
        for (int i = 0; i < count; i++) {
            float[] centre = c[r.nextInt(64)];
            for (int d = 0; d < dims; d++) {
                out[i][d] = centre[d] + 0.6f * (float) r.nextGaussian();
            }
        }
        return out;
    }
}
