package dev.kumiko.server;

import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * One writer of {@link DurabilityCrashTest}: writes one kind of request in a loop and remembers
 * what it attempted and what the server acknowledged, across server crashes. After the last
 * restart it checks the table and the stream against that memory. Each writer owns its keys
 * (its name is in every key), so writers never conflict and each can be checked alone.
 *
 * <p>A write that failed (the server died under it) may or may not have committed; the checks
 * hold under either outcome, so the verdict does not depend on where the kill fell.
 */
abstract class CrashWriter {
    static final String TABLE = "crash";
    static final String INDEX = "byG";
    /** The GSI's partition key takes this many values, so a Query per value covers the index. */
    static final int GROUPS = 4;

    static final int BATCH_ITEMS = 25;

    final String name;
    /** Acknowledged requests in the current server's life; the test waits for some before a kill. */
    final AtomicLong acksThisLife = new AtomicLong();

    CrashWriter(String name) {
        this.name = name;
    }

    static AttributeValue group(long i) {
        return s("g" + Math.floorMod(i, GROUPS));
    }

    /** Sends one request; returns normally only when the server acknowledged it. */
    abstract void writeOne(DynamoDbClient c);

    /**
     * Checks this writer's items in the final table and their stream records (in stream order);
     * returns how many table items it accounted for, so the test can tell that no item is a stranger.
     */
    abstract int verify(Map<String, Map<String, AttributeValue>> table, Map<String, List<Record>> records);

    /** Items written once: each must have exactly one INSERT record whose image is the item. */
    static void assertWrittenOnce(String pk, Map<String, AttributeValue> item, Map<String, List<Record>> records) {
        List<Record> rs = records.getOrDefault(pk, List.of());
        assertThat(rs).as("stream records of %s", pk).hasSize(1);
        assertThat(rs.get(0).eventNameAsString()).as("event of %s", pk).isEqualTo("INSERT");
        assertThat(rs.get(0).dynamodb().newImage()).as("NewImage of %s", pk).isEqualTo(item);
    }

    /**
     * A number attribute changed by one unit per write: its records run 1, 2, ... (or -1, -2, ...)
     * with each OldImage the previous NewImage, and end at the value in the table.
     */
    static void assertCountedBy(
            String pk,
            String attribute,
            long step,
            Map<String, AttributeValue> item,
            Map<String, List<Record>> records) {
        long value = Long.parseLong(item.get(attribute).n());
        List<Record> rs = records.getOrDefault(pk, List.of());
        assertThat((long) rs.size()).as("records of %s = applied writes", pk).isEqualTo(value / step);
        Map<String, AttributeValue> previous = null;
        for (int i = 0; i < rs.size(); i++) {
            Record r = rs.get(i);
            assertThat(r.eventNameAsString()).isEqualTo(i == 0 ? "INSERT" : "MODIFY");
            assertThat(r.dynamodb().oldImage().isEmpty() ? null : r.dynamodb().oldImage())
                    .as("OldImage of record %d of %s", i, pk)
                    .isEqualTo(previous);
            assertThat(r.dynamodb().newImage().get(attribute)).isEqualTo(n(step * (i + 1)));
            previous = r.dynamodb().newImage();
        }
        assertThat(previous).as("last NewImage of %s is the item", pk).isEqualTo(item);
    }

    /** PutItem of new items, one per request. */
    static final class Puts extends CrashWriter {
        private long next;
        private final Set<Long> acked = new HashSet<>();

        Puts(String name) {
            super(name);
        }

        private String pk(long i) {
            return name + "-" + i;
        }

        @Override
        void writeOne(DynamoDbClient c) {
            long i = next++;
            c.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s(pk(i)), "g", group(i), "v", n(i))));
            acked.add(i);
            acksThisLife.incrementAndGet();
        }

        @Override
        int verify(Map<String, Map<String, AttributeValue>> table, Map<String, List<Record>> records) {
            int found = 0;
            for (long i = 0; i < next; i++) {
                Map<String, AttributeValue> item = table.get(pk(i));
                if (item == null) {
                    assertThat(acked)
                            .as("acknowledged put %s is present", pk(i))
                            .doesNotContain(i);
                    continue;
                }
                assertThat(item).isEqualTo(Map.of("pk", s(pk(i)), "g", group(i), "v", n(i)));
                assertWrittenOnce(pk(i), item, records);
                found++;
            }
            return found;
        }
    }

    /** BatchWriteItem of 25 new items per request; items not handed back unprocessed are acknowledged. */
    static final class Batches extends CrashWriter {
        private long next;
        private final Set<String> acked = new HashSet<>();

        Batches(String name) {
            super(name);
        }

        private String pk(long batch, int j) {
            return name + "-" + batch + "-" + j;
        }

        @Override
        void writeOne(DynamoDbClient c) {
            long batch = next++;
            List<WriteRequest> puts = new ArrayList<>();
            for (int j = 0; j < BATCH_ITEMS; j++) {
                puts.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(Map.of("pk", s(pk(batch, j)), "g", group(j), "v", n(batch)))
                                .build())
                        .build());
            }
            BatchWriteItemResponse r = c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, puts)));
            Set<String> unprocessed = new HashSet<>();
            r.unprocessedItems()
                    .getOrDefault(TABLE, List.of())
                    .forEach(
                            w -> unprocessed.add(w.putRequest().item().get("pk").s()));
            for (int j = 0; j < BATCH_ITEMS; j++) {
                if (!unprocessed.contains(pk(batch, j))) {
                    acked.add(pk(batch, j));
                }
            }
            acksThisLife.incrementAndGet();
        }

        @Override
        int verify(Map<String, Map<String, AttributeValue>> table, Map<String, List<Record>> records) {
            int found = 0;
            for (long batch = 0; batch < next; batch++) {
                for (int j = 0; j < BATCH_ITEMS; j++) {
                    String pk = pk(batch, j);
                    Map<String, AttributeValue> item = table.get(pk);
                    if (item == null) {
                        assertThat(acked)
                                .as("acknowledged batch item %s is present", pk)
                                .doesNotContain(pk);
                        continue;
                    }
                    assertThat(item).isEqualTo(Map.of("pk", s(pk), "g", group(j), "v", n(batch)));
                    assertWrittenOnce(pk, item, records);
                    found++;
                }
            }
            return found;
        }
    }

    /** UpdateItem ADD on one counter; each update also moves the counter's GSI entry. */
    static final class Counter extends CrashWriter {
        private long attempted;
        private long acked;

        Counter(String name) {
            super(name);
        }

        @Override
        void writeOne(DynamoDbClient c) {
            long attempt = attempted++;
            c.updateItem(b -> b.tableName(TABLE)
                    .key(Txn.key(name))
                    .updateExpression("ADD n :one SET g = :g")
                    .expressionAttributeValues(Map.of(":one", n(1), ":g", group(attempt))));
            acked++;
            acksThisLife.incrementAndGet();
        }

        @Override
        int verify(Map<String, Map<String, AttributeValue>> table, Map<String, List<Record>> records) {
            Map<String, AttributeValue> item = table.get(name);
            assertThat(item).as("counter %s (%d acknowledged)", name, acked).isNotNull();
            long value = Long.parseLong(item.get("n").n());
            assertThat(value)
                    .as("counter %s: acknowledged <= value <= attempted", name)
                    .isBetween(acked, attempted);
            assertCountedBy(name, "n", 1, item, records);
            return 1;
        }
    }

    /**
     * TransactWriteItems of four actions: move one unit from account a to account b (ADD -1, ADD +1)
     * and put a pair of new items x and y. Half a transaction shows as a + b != 0, a lone x or y, or
     * a pair count that differs from b.
     */
    static final class Transfers extends CrashWriter {
        private long next;
        private final Set<Long> acked = new HashSet<>();

        Transfers(String name) {
            super(name);
        }

        private String account(String side) {
            return name + "-acct-" + side;
        }

        private String pair(long t, String side) {
            return name + "-" + t + "-" + side;
        }

        @Override
        void writeOne(DynamoDbClient c) {
            long t = next++;
            Map<String, AttributeValue> minus = Map.of(":d", n(-1), ":g", group(t));
            Map<String, AttributeValue> plus = Map.of(":d", n(1), ":g", group(t));
            List<TransactWriteItem> actions = List.of(
                    Txn.update(TABLE, account("a"), "ADD bal :d SET g = :g", minus),
                    Txn.update(TABLE, account("b"), "ADD bal :d SET g = :g", plus),
                    Txn.put(TABLE, Map.of("pk", s(pair(t, "x")), "g", group(t), "t", n(t))),
                    Txn.put(TABLE, Map.of("pk", s(pair(t, "y")), "g", group(t + 1), "t", n(t))));
            c.transactWriteItems(b -> b.transactItems(actions));
            acked.add(t);
            acksThisLife.incrementAndGet();
        }

        @Override
        int verify(Map<String, Map<String, AttributeValue>> table, Map<String, List<Record>> records) {
            Map<String, AttributeValue> a = table.get(account("a"));
            Map<String, AttributeValue> b = table.get(account("b"));
            assertThat(a).as("account a of %s", name).isNotNull();
            assertThat(b).as("account b of %s", name).isNotNull();
            long committed = Long.parseLong(b.get("bal").n());
            assertThat(Long.parseLong(a.get("bal").n())).as("a + b of %s", name).isEqualTo(-committed);
            assertCountedBy(account("a"), "bal", -1, a, records);
            assertCountedBy(account("b"), "bal", 1, b, records);
            long pairs = 0;
            for (long t = 0; t < next; t++) {
                Map<String, AttributeValue> x = table.get(pair(t, "x"));
                Map<String, AttributeValue> y = table.get(pair(t, "y"));
                assertThat(x == null)
                        .as("both or neither of pair %s", pair(t, ""))
                        .isEqualTo(y == null);
                if (x == null) {
                    assertThat(acked)
                            .as("acknowledged transaction %s is present", pair(t, ""))
                            .doesNotContain(t);
                    continue;
                }
                assertWrittenOnce(pair(t, "x"), x, records);
                assertWrittenOnce(pair(t, "y"), y, records);
                pairs++;
            }
            assertThat(pairs).as("pairs of %s = units moved", name).isEqualTo(committed);
            return Math.toIntExact(2 + 2 * pairs);
        }
    }
}
