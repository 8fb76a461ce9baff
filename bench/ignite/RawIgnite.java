import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.apache.ignite.sql.Statement;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;

/**
 * What Apache Ignite itself does on a cluster, through its own Java client: the baseline Kumiko on
 * Ignite is measured against (docs/benchmarks.md, "Kumiko on Ignite beside raw Ignite"). Each
 * workload is the raw equivalent of one of the harness's Kumiko workloads, on a table shaped like
 * Kumiko's (a VARBINARY colocation group G, key K and value V, colocated by G, in Kumiko's zone):
 *
 * <ul>
 *   <li>get: a key-value get of one row (GetItem);
 *   <li>rwtx: a read-write transaction that gets a row, upserts it and commits (PutItem, UpdateItem);
 *   <li>range50: a 50-row SQL range read of one colocation group inside a read-write transaction,
 *       ended by a rollback (a Query page of one partition key, as Kumiko reads it);
 *   <li>range50ro: the same read outside a transaction (read-only: it waits for the cluster's safe
 *       time);
 *   <li>tx25: one transaction that upserts 25 rows of 25 groups (BatchWriteItem);
 *   <li>getall50: a getAll of 50 rows of 50 groups (BatchGetItem of 50 keys).
 * </ul>
 *
 * Run with the Ignite client on the class path (kumiko-ignite's client jar):
 * {@code java -cp kumiko-ignite/target/kumiko-ignite-0.9.0-client.jar bench/ignite/RawIgnite.java
 * --endpoints 127.0.0.1:10301 --threads 32 --seconds 8 --warmup 3}. One line per workload on stdout:
 * {@code raw <workload> <ops/s> <p50 ms> <p99 ms> <errors>}.
 */
public final class RawIgnite {
    static final String TABLE = "RAW_BENCH";
    static final String ZONE = "KUMIKO";
    /** 50,000 rows: 32 threads seldom meet on one row, as the harness's writers seldom meet on one item. */
    static final int GROUPS = 1_000;
    static final int ROWS_PER_GROUP = 50;
    static final int VALUE_BYTES = 200;
    static final int LATENCIES_MAX = 2_000_000;

    public static void main(String[] args) throws Exception {
        String endpoints = arg(args, "--endpoints", "127.0.0.1:10301");
        int threads = Integer.parseInt(arg(args, "--threads", "32"));
        int seconds = Integer.parseInt(arg(args, "--seconds", "8"));
        int warmup = Integer.parseInt(arg(args, "--warmup", "3"));
        List<String> workloads = List.of(arg(args, "--workloads", "get,rwtx,range50,range50ro,tx25,getall50")
                .split(","));
        try (IgniteClient client = IgniteClient.builder()
                .addresses(endpoints.split(","))
                .build()) {
            setUp(client);
            RecordView<Tuple> view = client.tables().table(TABLE).recordView();
            for (String w : workloads) {
                Runnable op = workload(client, view, w);
                run(op, threads, warmup);
                double[] r = run(op, threads, seconds);
                System.out.printf(Locale.ROOT, "raw %s %.0f %.2f %.2f %.0f%n", w, r[0], r[1], r[2], r[3]);
            }
            System.out.flush();
            // Threads left stuck in the client (see rollbackBounded) must not keep it, or its close, waiting.
            System.exit(0);
        }
    }

    static String arg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    /** The table in Kumiko's zone (created by Kumiko's store, or here if missing), and its rows. */
    static void setUp(IgniteClient client) {
        client.sql()
                .execute(null, "CREATE ZONE IF NOT EXISTS " + ZONE + " STORAGE PROFILES ['default']")
                .close();
        client.sql()
                .execute(
                        null,
                        "CREATE TABLE IF NOT EXISTS " + TABLE + " (G VARBINARY(64), K VARBINARY(64), V VARBINARY(1024)"
                                + " NOT NULL, PRIMARY KEY (G, K)) COLOCATE BY (G) ZONE " + ZONE)
                .close();
        client.sql()
                .execute(null, "CREATE INDEX IF NOT EXISTS " + TABLE + "_BY_KEY ON " + TABLE + " USING SORTED (K ASC)")
                .close();
        RecordView<Tuple> view = client.tables().table(TABLE).recordView();
        for (int g = 0; g < GROUPS; g++) {
            List<Tuple> rows = new ArrayList<>(ROWS_PER_GROUP);
            for (int r = 0; r < ROWS_PER_GROUP; r++) {
                rows.add(row(g, r));
            }
            view.upsertAll(null, rows);
        }
    }

    static byte[] group(int g) {
        return new byte[] {1, (byte) (g >>> 8), (byte) g};
    }

    static byte[] key(int g, int r) {
        return new byte[] {1, (byte) (g >>> 8), (byte) g, (byte) (r >>> 8), (byte) r};
    }

    static Tuple keyTuple(int g, int r) {
        return Tuple.create(2).set("G", group(g)).set("K", key(g, r));
    }

    static Tuple row(int g, int r) {
        byte[] value = new byte[VALUE_BYTES];
        ThreadLocalRandom.current().nextBytes(value);
        return Tuple.create(3).set("G", group(g)).set("K", key(g, r)).set("V", value);
    }

    static Runnable workload(IgniteClient client, RecordView<Tuple> view, String name) {
        Statement range = client.sql()
                .statementBuilder()
                .query("SELECT K, V FROM " + TABLE + " WHERE G = ? AND K >= ? AND K < ? ORDER BY K ASC")
                .pageSize(256)
                .build();
        return switch (name) {
            case "get" -> () -> view.get(null, keyTuple(randomGroup(), randomRow()));
            case "rwtx" -> () -> {
                int g = randomGroup();
                int r = randomRow();
                Transaction tx = client.transactions().begin();
                try {
                    view.get(tx, keyTuple(g, r));
                    view.upsert(tx, row(g, r));
                    tx.commit();
                } catch (RuntimeException e) {
                    rollbackBounded(tx);
                    throw e;
                }
            };
            case "range50", "range50ro" -> () -> {
                int g = randomGroup();
                Transaction tx = name.equals("range50") ? client.transactions().begin() : null;
                try (ResultSet<SqlRow> rows = client.sql().execute(tx, range, group(g), key(g, 0), key(g + 1, 0))) {
                    int n = 0;
                    while (rows.hasNext()) {
                        rows.next();
                        n++;
                    }
                    if (n != ROWS_PER_GROUP) {
                        throw new IllegalStateException("range read " + n + " rows");
                    }
                }
                if (tx != null) {
                    tx.rollback(); // it wrote nothing: ending it releases its locks
                }
            };
            case "tx25" -> () -> {
                Transaction tx = client.transactions().begin();
                try {
                    List<Tuple> rows = new ArrayList<>(25);
                    int first = randomGroup();
                    for (int i = 0; i < 25; i++) {
                        rows.add(row((first + i * 37) % GROUPS, randomRow()));
                    }
                    view.upsertAll(tx, rows);
                    tx.commit();
                } catch (RuntimeException e) {
                    rollbackBounded(tx);
                    throw e;
                }
            };
            case "getall50" -> () -> {
                List<Tuple> keys = new ArrayList<>(50);
                int r = randomRow();
                int first = randomGroup();
                for (int g = 0; g < 50; g++) {
                    keys.add(keyTuple((first + g * 7) % GROUPS, r));
                }
                view.getAll(null, keys);
            };
            default -> throw new IllegalArgumentException("unknown workload " + name);
        };
    }

    /**
     * The 3.1.0 client's rollback of a transaction whose multi-partition call failed can wait
     * forever (docs/distributed.md, "Layout"): wait at most a second, then leave it to its timeout.
     */
    static void rollbackBounded(Transaction tx) {
        try {
            tx.rollbackAsync().get(1, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            // already aborted, or stuck: the node aborts it after its timeout
        }
    }

    static int randomGroup() {
        return ThreadLocalRandom.current().nextInt(GROUPS);
    }

    static int randomRow() {
        return ThreadLocalRandom.current().nextInt(ROWS_PER_GROUP);
    }

    /** Runs op from threads for seconds; returns ops/s, p50 ms, p99 ms, errors. */
    static double[] run(Runnable op, int threads, int seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long[][] latencies = new long[threads][LATENCIES_MAX / threads];
        int[] counts = new int[threads];
        int[] errors = new int[threads];
        List<Thread> workers = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread worker = new Thread(() -> {
                while (!stop.get()) {
                    long start = System.nanoTime();
                    try {
                        op.run();
                    } catch (RuntimeException e) {
                        errors[id]++;
                        continue;
                    }
                    if (counts[id] < latencies[id].length) {
                        latencies[id][counts[id]++] = System.nanoTime() - start;
                    }
                }
            });
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
        long started = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread w : workers) {
            w.join(10_000); // a worker stuck in the client is left behind (daemon), not waited for
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        long[] all = new long[Arrays.stream(counts).sum()];
        int at = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(latencies[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        double p50 = all.length == 0 ? 0 : all[all.length / 2] / 1e6;
        double p99 = all.length == 0 ? 0 : all[(int) (all.length * 0.99)] / 1e6;
        return new double[] {all.length / elapsed, p50, p99, Arrays.stream(errors).sum()};
    }
}
