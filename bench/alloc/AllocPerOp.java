import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Bytes allocated and CPU spent by a Kumiko server per request, per workload, measured inside the
 * server's JVM: every thread's allocation and CPU counters (ThreadMXBean) before and after a fixed
 * number of requests, minus this driver's own thread. Neither figure depends much on what else runs
 * on the machine, unlike throughput, so two jars can be compared on a busy machine.
 *
 * <pre>
 *   java -cp kumiko.jar bench/alloc/AllocPerOp.java [--store memory|rocksdb] [--items 20000]
 *        [--requests 20000] [--warmup 30000] [--workloads put,get,query,update,batch,mixed]
 *        [--jfr /tmp/WORKLOAD.jfr] [--async EVENT:/tmp/WORKLOAD.collapsed:INTERVAL]
 *        [--stream NEW_AND_OLD_IMAGES|NEW_IMAGE|OLD_IMAGE|KEYS_ONLY]
 * </pre>
 *
 * The requests are the load harness's (bench/harness/lua/ddb.lua): same table, items and bodies,
 * sent one at a time over each of --connections keep-alive connections (default 1). Prints one line per workload: bytes and CPU
 * microseconds per request (batch: per request of 25 items). With --jfr, each workload's measured
 * requests are also recorded with JFR's "profile" settings (summarize with bench/profile/jfr_top.py).
 * With --async (async-profiler's jar on the class path, ASYNC_PROFILER_LIB naming its library, as
 * for bench/profile/profile.sh), they are profiled for EVENT (cpu, itimer, alloc) into a collapsed
 * stack file (summarize with bench/profile/collapsed_top.py); INTERVAL is in the event's unit
 * (nanoseconds for cpu and itimer, bytes for alloc). Besides the harness's workloads, put_old is put
 * asking for ALL_OLD (as mixed does) and update_all_new the update asking for ALL_NEW. With
 * --stream, the table has a stream of that view type, so every write also appends its change
 * record (the harness's table has none). Operations the harness does not run: scan (a page of 50
 * from a random start key), query_filter (a partition's query with a filter on qty), batch_get (25
 * keys), transact_write (two conditional updates), transact_get (two gets), partiql_get (a SELECT
 * of one item by its key) and delete_put (a DeleteItem, then a PutItem of the same key).
 */
public final class AllocPerOp {
    private static final int PER_PARTITION = 100;
    private static final int ORDERED = 80;
    private static final int BATCH_ITEMS = 25;
    private static final int QUERY_LIMIT = 50;
    private static final int GSI_PARTITIONS = 100;

    /** Threads of this driver, left out of the server's counters. */
    private static final java.util.Set<Long> DRIVER_THREADS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Random random;
    private final String filler;
    private final int partitions;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    /** The key delete_put deleted last and has not put back yet, or null. */
    private int[] deleted;

    private AllocPerOp(int port, int items, long seed) throws IOException {
        this.random = new Random(seed);
        this.partitions = items / PER_PARTITION;
        StringBuilder b = new StringBuilder();
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        for (int i = 0; i < 1100; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        this.filler = b.toString();
        this.socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        this.out = socket.getOutputStream();
        this.in = new java.io.BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** The workloads {@link #body} knows. */
    private static final List<String> WORKLOADS = List.of("put", "put_old", "get", "query", "update", "update_all_new",
            "batch", "mixed", "scan", "query_filter", "batch_get", "transact_write", "transact_get", "partiql_get",
            "delete_put");

    /** Exits when done or failed: the server's event loops would keep the JVM up otherwise. */
    public static void main(String[] args) {
        try {
            measure(args);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void measure(String[] args) throws Exception {
        String store = "memory";
        int items = 20000, requests = 20000, warmup = 30000;
        String workloads = "put,get,query,update,batch,mixed";
        String jfr = null;
        int connections = 1;
        String profile = null;
        String streamView = null;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--store" -> store = args[i + 1];
                case "--items" -> items = Integer.parseInt(args[i + 1]);
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--workloads" -> workloads = args[i + 1];
                case "--jfr" -> jfr = args[i + 1];
                case "--connections" -> connections = Integer.parseInt(args[i + 1]);
                case "--async" -> profile = args[i + 1];
                case "--stream" -> streamView = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        // Checked before the server starts: its event loops would keep the JVM up after a failure.
        for (String w : workloads.split(",")) {
            if (!WORKLOADS.contains(w)) {
                throw new IllegalArgumentException("unknown workload " + w + " (one of " + WORKLOADS + ")");
            }
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> serve = new ArrayList<>(List.of("serve", "--port", String.valueOf(port)));
        java.nio.file.Path dir = null;
        if (store.equals("rocksdb")) {
            dir = java.nio.file.Files.createTempDirectory("kumiko-alloc");
            serve.addAll(List.of("--data-dir", dir.toString(), "--durability", "process"));
        } else {
            serve.add("--in-memory");
        }
        Thread server = new Thread(() -> invokeMain(serve.toArray(new String[0])), "server-main");
        server.setDaemon(true);
        server.start();
        DRIVER_THREADS.add(Thread.currentThread().getId());
        AllocPerOp d = connect(port, items);
        d.createTable(streamView);
        d.preload(items);
        List<AllocPerOp> clients = new ArrayList<>(List.of(d));
        for (int i = 1; i < connections; i++) {
            clients.add(new AllocPerOp(port, items, 42 + i));
        }
        System.out.printf("store %s, %d items, %d requests per workload after %d warmup%n", store, items, requests,
                warmup);
        System.out.println("| workload | bytes / request | server CPU µs / request |");
        System.out.println("|---|---:|---:|");
        for (String w : workloads.split(",")) {
            runAll(clients, w, warmup);
            jdk.jfr.Recording recording = null;
            if (jfr != null) {
                recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                recording.start();
            }
            if (profile != null) {
                asyncProfiler("start,event=" + profile.split(":")[0] + ",interval=" + profile.split(":")[2]);
            }
            long[] before = counters();
            runAll(clients, w, requests);
            long[] after = counters();
            if (profile != null) {
                asyncProfiler("stop,file=" + profile.split(":")[1].replace("WORKLOAD", w) + ",collapsed,total");
            }
            if (recording != null) {
                recording.stop();
                recording.dump(java.nio.file.Path.of(jfr.replace("WORKLOAD", w)));
                recording.close();
            }
            System.out.printf(Locale.ROOT, "| %s | %,d | %.1f |%n", w, (after[0] - before[0]) / requests,
                    (after[1] - before[1]) / 1000.0 / requests);
        }
    }

    /** async-profiler's Java API, by reflection so that the driver runs without it on the class path. */
    private static void asyncProfiler(String command) throws Exception {
        Class<?> c = Class.forName("one.profiler.AsyncProfiler");
        Object p = c.getMethod("getInstance", String.class).invoke(null, System.getenv("ASYNC_PROFILER_LIB"));
        c.getMethod("execute", String.class).invoke(p, command);
    }

    private static void invokeMain(String[] args) {
        try {
            Class.forName("dev.kumiko.server.cli.Main").getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AllocPerOp connect(int port, int items) throws Exception {
        for (int i = 0; i < 300; i++) {
            try {
                return new AllocPerOp(port, items, 42);
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("server did not start");
    }

    /** Allocated bytes and CPU nanoseconds of every live thread but this one. */
    private static long[] counters() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0, cpu = 0;
        for (long id : mx.getAllThreadIds()) {
            if (DRIVER_THREADS.contains(id)) {
                continue;
            }
            long b = mx.getThreadAllocatedBytes(id);
            long c = mx.getThreadCpuTime(id);
            bytes += Math.max(0, b);
            cpu += Math.max(0, c);
        }
        return new long[] {bytes, cpu};
    }

    /** n requests spread over the clients, each on its own thread and connection. */
    private static void runAll(List<AllocPerOp> clients, String workload, int n) throws Exception {
        if (clients.size() == 1) {
            clients.get(0).run(workload, n);
            return;
        }
        List<Thread> threads = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic.AtomicReference<>();
        for (AllocPerOp c : clients) {
            Thread t = new Thread(() -> {
                try {
                    c.run(workload, n / clients.size());
                } catch (Exception e) {
                    failure.set(e);
                }
            });
            DRIVER_THREADS.add(t.getId());
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private void run(String workload, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            String[] req = body(workload);
            String answer = call(req[0], req[1]);
            if (!answer.startsWith("200 ")) {
                throw new IllegalStateException(workload + ": " + answer);
            }
        }
        if (deleted != null) { // an odd count ended on a delete: the next workloads expect every item
            String[] put = deleteOrPut();
            call(put[0], put[1]);
        }
    }

    private String[] body(String workload) {
        return switch (workload) {
            case "put" -> new String[] {"PutItem", "{\"TableName\":\"bench\",\"Item\":" + itemJson(rp(), rj()) + "}"};
            case "put_old" -> new String[] {"PutItem",
                "{\"TableName\":\"bench\",\"Item\":" + itemJson(rp(), rj()) + ",\"ReturnValues\":\"ALL_OLD\"}"};
            case "get" -> new String[] {"GetItem",
                "{\"TableName\":\"bench\",\"Key\":" + keyJson(rp(), rj()) + ",\"ConsistentRead\":true}"};
            case "query" -> new String[] {"Query", String.format(Locale.ROOT,
                "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"PK = :p AND begins_with(SK, :s)\","
                        + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"%s\"},\":s\":{\"S\":\"o#\"}},\"Limit\":%d}",
                pkey(rp()), QUERY_LIMIT)};
            case "update" -> updateBody("UPDATED_NEW");
            case "update_all_new" -> updateBody("ALL_NEW");
            case "batch" -> batchBody(rp());
            case "mixed" -> {
                int r = random.nextInt(10);
                yield body(r < 8 ? "get" : r == 8 ? "put_old" : "update");
            }
            case "scan" -> new String[] {"Scan", "{\"TableName\":\"bench\",\"Limit\":" + QUERY_LIMIT
                    + ",\"ExclusiveStartKey\":" + keyJson(rp(), 0) + "}"};
            case "query_filter" -> new String[] {"Query", String.format(Locale.ROOT,
                "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"PK = :p\",\"FilterExpression\":\"qty > :q\","
                        + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"%s\"},\":q\":{\"N\":\"500\"}},\"Limit\":%d}",
                pkey(rp()), QUERY_LIMIT)};
            case "batch_get" -> batchGetBody();
            case "transact_write" -> transactWriteBody();
            case "transact_get" -> transactGetBody(rp());
            case "partiql_get" -> new String[] {"ExecuteStatement", String.format(Locale.ROOT,
                "{\"Statement\":\"SELECT * FROM bench WHERE PK = ? AND SK = ?\",\"Parameters\":[{\"S\":\"%s\"},{\"S\":\"%s\"}]}",
                pkey(rp()), skey(rj()))};
            case "delete_put" -> deleteOrPut();
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
    }

    /** A BatchGetItem of 25 distinct keys (consistent reads). */
    private String[] batchGetBody() {
        StringBuilder b = new StringBuilder("{\"RequestItems\":{\"bench\":{\"ConsistentRead\":true,\"Keys\":[");
        int p = rp();
        for (int k = 0; k < BATCH_ITEMS; k++) {
            b.append(k == 0 ? "" : ",").append(keyJson((p + k) % partitions, rj()));
        }
        return new String[] {"BatchGetItem", b.append("]}}}").toString()};
    }

    /** Two gets in one transaction, of items in partitions p and p + 1 (one transaction may not name an item twice). */
    private String[] transactGetBody(int p) {
        String get = "{\"Get\":{\"TableName\":\"bench\",\"Key\":%s}}";
        return new String[] {"TransactGetItems", "{\"TransactItems\":["
                + String.format(Locale.ROOT, get, keyJson(p, rj())) + ","
                + String.format(Locale.ROOT, get, keyJson((p + 1) % partitions, rj())) + "]}"};
    }

    /** Two updates in one transaction, each conditional, as a transfer between two items makes. */
    private String[] transactWriteBody() {
        int p = rp();
        String update = "{\"Update\":{\"TableName\":\"bench\",\"Key\":%s,\"UpdateExpression\":\"ADD qty :d\","
                + "\"ConditionExpression\":\"attribute_exists(PK)\",\"ExpressionAttributeValues\":{\":d\":{\"N\":\"%d\"}}}}";
        return new String[] {"TransactWriteItems", "{\"TransactItems\":["
                + String.format(Locale.ROOT, update, keyJson(p, rj()), -1) + ","
                + String.format(Locale.ROOT, update, keyJson((p + 1) % partitions, rj()), 1) + "]}"};
    }

    /**
     * Every other request deletes a random item and the next puts it back, so the table keeps its
     * items (the figure is the mean of a DeleteItem and a PutItem).
     */
    private String[] deleteOrPut() {
        if (deleted == null) {
            deleted = new int[] {rp(), rj()};
            return new String[] {"DeleteItem", "{\"TableName\":\"bench\",\"Key\":" + keyJson(deleted[0], deleted[1]) + "}"};
        }
        String[] put = {"PutItem", "{\"TableName\":\"bench\",\"Item\":" + itemJson(deleted[0], deleted[1]) + "}"};
        deleted = null;
        return put;
    }

    /** The harness's update, answering with returnValues (the harness asks for UPDATED_NEW). */
    private String[] updateBody(String returnValues) {
        return new String[] {"UpdateItem", String.format(Locale.ROOT,
            "{\"TableName\":\"bench\",\"Key\":%s,\"UpdateExpression\":\"ADD cnt :one SET updatedAt = :t\","
                    + "\"ConditionExpression\":\"attribute_exists(PK)\",\"ExpressionAttributeValues\":"
                    + "{\":one\":{\"N\":\"1\"},\":t\":{\"N\":\"%d\"}},\"ReturnValues\":\"%s\"}",
            keyJson(rp(), rj()), 1 + random.nextInt(999999999), returnValues)};
    }

    private String[] batchBody(int first) {
        StringBuilder b = new StringBuilder("{\"RequestItems\":{\"bench\":[");
        for (int k = 0; k < BATCH_ITEMS; k++) {
            b.append(k == 0 ? "" : ",").append("{\"PutRequest\":{\"Item\":")
                    .append(itemJson((first + k) % partitions, rj())).append("}}");
        }
        return new String[] {"BatchWriteItem", b.append("]}}").toString()};
    }

    private int rp() {
        return random.nextInt(partitions);
    }

    private int rj() {
        return random.nextInt(PER_PARTITION);
    }

    private static String pkey(int p) {
        return String.format(Locale.ROOT, "p#%06d", p);
    }

    private static String skey(int j) {
        return String.format(Locale.ROOT, j < ORDERED ? "o#%03d" : "x#%03d", j);
    }

    private String itemJson(int p, int j) {
        String pk = pkey(p), sk = skey(j);
        int o1 = random.nextInt(900), o2 = random.nextInt(900);
        return String.format(Locale.ROOT, "{\"PK\":{\"S\":\"%s\"},\"SK\":{\"S\":\"%s\"},\"GSI1PK\":{\"S\":\"g#%03d\"},"
                + "\"GSI1SK\":{\"S\":\"%s#%s\"},\"name\":{\"S\":\"%s\"},\"qty\":{\"N\":\"%d\"},"
                + "\"price\":{\"N\":\"%d.%02d\"},\"payload\":{\"S\":\"%s\"}}",
                pk, sk, p % GSI_PARTITIONS, sk, pk, filler.substring(o1, o1 + 32), 1 + random.nextInt(999),
                1 + random.nextInt(9999), random.nextInt(100), filler.substring(o2, o2 + 94));
    }

    private static String keyJson(int p, int j) {
        return "{\"PK\":{\"S\":\"" + pkey(p) + "\"},\"SK\":{\"S\":\"" + skey(j) + "\"}}";
    }

    /** The harness's table; streamView null for none, else a stream of that view type. */
    private void createTable(String streamView) throws IOException {
        String body = "{\"TableName\":\"bench\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":["
                + "{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
                + "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"GSI1SK\",\"AttributeType\":\"S\"}],"
                + "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
                + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":["
                + "{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"GSI1SK\",\"KeyType\":\"RANGE\"}],"
                + "\"Projection\":{\"ProjectionType\":\"ALL\"}}]"
                + (streamView == null ? "" : ",\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\""
                        + streamView + "\"}")
                + "}";
        String answer = call("CreateTable", body);
        if (!answer.startsWith("200 ")) {
            throw new IllegalStateException(answer);
        }
    }

    private void preload(int items) throws IOException {
        for (int p = 0; p < partitions; p++) {
            for (int j0 = 0; j0 < PER_PARTITION; j0 += BATCH_ITEMS) {
                StringBuilder b = new StringBuilder("{\"RequestItems\":{\"bench\":[");
                for (int k = 0; k < BATCH_ITEMS; k++) {
                    b.append(k == 0 ? "" : ",").append("{\"PutRequest\":{\"Item\":").append(itemJson(p, j0 + k))
                            .append("}}");
                }
                String answer = call("BatchWriteItem", b.append("]}}").toString());
                if (!answer.startsWith("200 ")) {
                    throw new IllegalStateException(answer);
                }
            }
        }
    }

    /** One request; answers "STATUS BODY". */
    private String call(String operation, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                + "X-Amz-Target: DynamoDB_20120810." + operation + "\r\nX-Amz-Date: 20261124T000000Z\r\n"
                + "Authorization: AWS4-HMAC-SHA256 Credential=bench/20261124/us-east-1/dynamodb/aws4_request, "
                + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0".repeat(64) + "\r\n"
                + "Content-Length: " + bytes.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
        return readResponse();
    }

    private String readResponse() throws IOException {
        String status = line();
        int length = -1;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (h.substring(0, colon).equalsIgnoreCase("content-length")) {
                length = Integer.parseInt(h.substring(colon + 1).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return status.split(" ")[1] + " " + new String(body, StandardCharsets.UTF_8);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }
}
