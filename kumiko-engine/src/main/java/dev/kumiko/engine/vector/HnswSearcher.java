package dev.kumiko.engine.vector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * An approximate searcher: a hierarchical navigable small-world graph (Malkov and Yashunin, 2016)
 * in pure Java. Each vector is a node linked to about M near nodes per layer (2M on layer 0); a
 * search descends greedily from the top layer, then explores layer 0 with a beam of efSearch.
 * A removed or replaced vector leaves its node in the graph as a tombstone (others route through
 * it, none returns it) until tombstones outnumber live nodes, when the graph is rebuilt from the
 * live vectors. A filtered search that finds fewer than k accepted nodes in the graph scans every
 * live node instead, so a selective filter never loses results.
 */
public final class HnswSearcher implements VectorSearcher {
    /** Links per node per upper layer; layer 0 has twice as many. */
    static final int M = 16;
    /** Beam width while building: higher builds a better graph, slower. */
    static final int EF_CONSTRUCTION = 64;
    /** Beam width while searching, at least k. */
    static final int EF_SEARCH = 96;
    /** Tombstones below this many never trigger a rebuild. */
    static final int REBUILD_TOMBSTONES_MIN = 1024;

    public static final Factory FACTORY = new Factory() {
        @Override
        public String name() {
            return "hnsw";
        }

        @Override
        public VectorSearcher create(int dimensions, VectorDistance distance) {
            return new HnswSearcher(dimensions, distance, EF_SEARCH);
        }
    };

    private final int dimensions;
    private final VectorDistance distance;
    private final int efSearch;
    private final double levelFactor = 1 / Math.log(M);
    private final SplittableRandom random = new SplittableRandom(42);

    // Per node: its vector, 1/|v| (cosine), id, links per layer ([layer][0] = count), tombstone.
    private float[][] vectors = new float[16][];
    private float[] inverseNorms = new float[16];
    private int[] nodeIds = new int[16];
    private int[][][] links = new int[16][][];
    private final BitSet dead = new BitSet();
    private int nodes;
    private int tombstones;
    private int[] idNodes = new int[16]; // id -> node + 1; 0 = none
    private int entry = -1;
    private int topLayer = -1;

    public HnswSearcher(int dimensions, VectorDistance distance, int efSearch) {
        this.dimensions = dimensions;
        this.distance = distance;
        this.efSearch = efSearch;
    }

    @Override
    public void put(int id, float[] vector) {
        assert vector.length == dimensions && id >= 0;
        remove(id);
        int node = addNode(id, vector.clone());
        if (id >= idNodes.length) {
            idNodes = Arrays.copyOf(idNodes, Math.max(id + 1, idNodes.length * 2));
        }
        idNodes[id] = node + 1;
    }

    @Override
    public void remove(int id) {
        if (id >= idNodes.length || idNodes[id] == 0) {
            return;
        }
        dead.set(idNodes[id] - 1);
        idNodes[id] = 0;
        tombstones++;
        if (tombstones >= REBUILD_TOMBSTONES_MIN && tombstones > nodes - tombstones) {
            rebuild();
        }
    }

    @Override
    public int size() {
        return nodes - tombstones;
    }

    @Override
    public long bytesPerVector() {
        // The vector, its norm and id, about 1.1 layers of links (M*2 on layer 0), array headers.
        return 4L * dimensions + 8 + 4L * (2 * M + 1) + (long) (0.1 * 4 * (M + 1)) + 64;
    }

    @Override
    public List<Hit> search(float[] query, int k, IntPredicate accept) {
        if (entry < 0) {
            return List.of();
        }
        float queryInverseNorm = inverseNorm(query);
        int ep = entry;
        for (int layer = topLayer; layer > 0; layer--) {
            ep = greedy(query, queryInverseNorm, ep, layer);
        }
        NodeHeap found = searchLayer(query, queryInverseNorm, ep, Math.max(efSearch, k), 0, accept, true);
        if (found.size() < k && size() > found.size()) {
            found = scan(query, queryInverseNorm, k, accept); // a selective filter: exact instead
        }
        while (found.size() > k) {
            found.pop();
        }
        Hit[] out = new Hit[found.size()];
        for (int i = out.length - 1; i >= 0; i--) {
            int node = found.topNode();
            out[i] = new Hit(nodeIds[node], distance.score(query, vectors[node]));
            found.pop();
        }
        return List.of(out);
    }

    /** The graph's distance: smaller is closer, cheap (squared L2, 1 - cos, -dot). */
    private float rank(float[] q, float qInverseNorm, int node) {
        float[] v = vectors[node];
        return switch (distance) {
            case COSINE -> 1 - VectorDistance.dot(q, v) * qInverseNorm * inverseNorms[node];
            case EUCLIDEAN -> VectorDistance.squaredDistance(q, v);
            case DOT_PRODUCT -> -VectorDistance.dot(q, v);
        };
    }

    private static float inverseNorm(float[] v) {
        float n = VectorDistance.dot(v, v);
        return n == 0 ? 0 : (float) (1 / Math.sqrt(n));
    }

    private int addNode(int id, float[] vector) {
        int node = nodes++;
        if (node == vectors.length) {
            int n = node * 2;
            vectors = Arrays.copyOf(vectors, n);
            inverseNorms = Arrays.copyOf(inverseNorms, n);
            nodeIds = Arrays.copyOf(nodeIds, n);
            links = Arrays.copyOf(links, n);
        }
        vectors[node] = vector;
        inverseNorms[node] = inverseNorm(vector);
        nodeIds[node] = id;
        int level = Math.min(16, (int) (-Math.log(1 - random.nextDouble()) * levelFactor));
        links[node] = new int[level + 1][];
        for (int l = 0; l <= level; l++) {
            links[node][l] = new int[maxLinks(l) + 2]; // [0] = count; one spare slot before pruning
        }
        if (entry < 0) {
            entry = node;
            topLayer = level;
            return node;
        }
        link(node, vector, level);
        if (level > topLayer) {
            topLayer = level;
            entry = node;
        }
        return node;
    }

    private static int maxLinks(int layer) {
        return layer == 0 ? 2 * M : M;
    }

    private void link(int node, float[] vector, int level) {
        float inv = inverseNorms[node];
        int ep = entry;
        for (int layer = topLayer; layer > level; layer--) {
            ep = greedy(vector, inv, ep, layer);
        }
        for (int layer = Math.min(level, topLayer); layer >= 0; layer--) {
            NodeHeap candidates = searchLayer(vector, inv, ep, EF_CONSTRUCTION, layer, x -> true, false);
            int[] chosen = selectNeighbours(candidates, maxLinks(layer));
            for (int n : chosen) {
                addLink(node, n, layer);
                addLink(n, node, layer);
            }
            if (chosen.length > 0) {
                ep = chosen[0];
            }
        }
    }

    /**
     * The heuristic of the paper (algorithm 4): nearest first, and a candidate only if it is closer
     * to the new node than to every neighbour already chosen, which keeps links pointing in varied
     * directions (the graph stays navigable across clusters).
     */
    private int[] selectNeighbours(NodeHeap candidates, int max) {
        int n = candidates.size();
        int[] byDistance = new int[n];
        float[] dist = new float[n];
        for (int i = n - 1; i >= 0; i--) {
            byDistance[i] = candidates.topNode();
            dist[i] = candidates.topDistance();
            candidates.pop();
        }
        int[] chosen = new int[Math.min(max, n)];
        int count = 0;
        for (int i = 0; i < n && count < chosen.length; i++) {
            int c = byDistance[i];
            boolean keep = true;
            for (int j = 0; j < count; j++) {
                if (rank(vectors[c], inverseNorms[c], chosen[j]) < dist[i]) {
                    keep = false;
                    break;
                }
            }
            if (keep) {
                chosen[count++] = c;
            }
        }
        return Arrays.copyOf(chosen, count);
    }

    private void addLink(int from, int to, int layer) {
        int[] list = links[from][layer];
        int count = list[0];
        for (int i = 1; i <= count; i++) {
            if (list[i] == to) {
                return;
            }
        }
        list[++count] = to;
        list[0] = count;
        if (count > maxLinks(layer)) {
            prune(from, layer);
        }
    }

    /** Cuts a node's links back to the maximum, by the same heuristic over its current links. */
    private void prune(int node, int layer) {
        int[] list = links[node][layer];
        NodeHeap h = new NodeHeap(list[0], true);
        for (int i = 1; i <= list[0]; i++) {
            h.push(rank(vectors[node], inverseNorms[node], list[i]), list[i]);
        }
        int[] kept = selectNeighbours(h, maxLinks(layer));
        list[0] = kept.length;
        System.arraycopy(kept, 0, list, 1, kept.length);
    }

    private int greedy(float[] q, float qInv, int start, int layer) {
        int current = start;
        float best = rank(q, qInv, current);
        boolean moved = true;
        while (moved) {
            moved = false;
            int[] list = links[current][layer];
            for (int i = 1; i <= list[0]; i++) {
                int n = list[i];
                float d = rank(q, qInv, n);
                if (d < best) {
                    best = d;
                    current = n;
                    moved = true;
                }
            }
        }
        return current;
    }

    /**
     * The beam search of one layer (algorithm 2): up to ef nearest nodes, as a largest-first heap.
     * With onlyLive, tombstones and nodes accept refuses are walked through but not kept.
     */
    private NodeHeap searchLayer(
            float[] q, float qInv, int start, int ef, int layer, IntPredicate accept, boolean onlyLive) {
        BitSet visited = new BitSet(nodes);
        NodeHeap candidates = new NodeHeap(ef * 2, false);
        NodeHeap results = new NodeHeap(ef + 1, true);
        float d0 = rank(q, qInv, start);
        visited.set(start);
        candidates.push(d0, start);
        if (keeps(start, accept, onlyLive)) {
            results.push(d0, start);
        }
        while (!candidates.isEmpty()) {
            float d = candidates.topDistance();
            int c = candidates.topNode();
            if (results.size() >= ef && d > results.topDistance()) {
                break;
            }
            candidates.pop();
            int[] list = links[c].length > layer ? links[c][layer] : EMPTY;
            for (int i = 1; i <= list[0]; i++) {
                int n = list[i];
                if (visited.get(n)) {
                    continue;
                }
                visited.set(n);
                float dn = rank(q, qInv, n);
                if (results.size() < ef || dn < results.topDistance()) {
                    candidates.push(dn, n);
                    if (keeps(n, accept, onlyLive)) {
                        results.push(dn, n);
                        if (results.size() > ef) {
                            results.pop();
                        }
                    }
                }
            }
        }
        return results;
    }

    private static final int[] EMPTY = {0};

    private boolean keeps(int node, IntPredicate accept, boolean onlyLive) {
        return !onlyLive || (!dead.get(node) && accept.test(nodeIds[node]));
    }

    private NodeHeap scan(float[] q, float qInv, int k, IntPredicate accept) {
        NodeHeap results = new NodeHeap(k + 1, true);
        for (int node = 0; node < nodes; node++) {
            if (!dead.get(node) && accept.test(nodeIds[node])) {
                results.push(rank(q, qInv, node), node);
                if (results.size() > k) {
                    results.pop();
                }
            }
        }
        return results;
    }

    /** A new graph of the live vectors only: tombstones and their memory go. */
    private void rebuild() {
        List<int[]> live = new ArrayList<>(nodes - tombstones);
        List<float[]> liveVectors = new ArrayList<>(nodes - tombstones);
        for (int node = 0; node < nodes; node++) {
            if (!dead.get(node)) {
                live.add(new int[] {nodeIds[node]});
                liveVectors.add(vectors[node]);
            }
        }
        vectors = new float[Math.max(16, live.size())][];
        inverseNorms = new float[vectors.length];
        nodeIds = new int[vectors.length];
        links = new int[vectors.length][][];
        dead.clear();
        nodes = 0;
        tombstones = 0;
        entry = -1;
        topLayer = -1;
        Arrays.fill(idNodes, 0);
        for (int i = 0; i < live.size(); i++) {
            int id = live.get(i)[0];
            idNodes[id] = addNode(id, liveVectors.get(i)) + 1;
        }
    }
}
