package dev.kumiko.server.transactions;

import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * The Developer Guide's isolation promise, as a bank: writer threads move random amounts between
 * accounts with TransactWriteItems (refused when the balance would go negative), touch threads
 * bump a counter with plain UpdateItem, and reader threads read every account with
 * TransactGetItems. Every read must see the same total, and at the end no transfer and no plain
 * update may be lost. Conflicts and cancellations are expected and retried. The run is bounded by
 * operation counts, not by time.
 */
@Tag("slow")
class TransactIsolationTest {
    private static final String TABLE = "bank";
    private static final int ACCOUNTS = 8;
    private static final long OPENING_BALANCE = 1_000;
    private static final long TOTAL = ACCOUNTS * OPENING_BALANCE;
    private static final int WRITERS = 4;
    private static final int TRANSFERS_PER_WRITER = 120;
    private static final int TOUCHERS = 1;
    private static final int TOUCHES_PER_TOUCHER = 150;
    private static final int READERS = 2;
    /** A bound on retries of one operation; reaching it fails the test rather than spinning forever. */
    private static final int ATTEMPTS_MAX = 10_000;

    /** One committed transfer, as the writer that made it records it. */
    private record Transfer(int from, int to, long amount) {}

    private static String account(int i) {
        return "acct-" + i;
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void everyReadSeesTheSameTotalAndNoWriteIsLost(TestServer.StoreKind kind) throws Exception {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Txn.createHashTable(c, TABLE);
            for (int i = 0; i < ACCOUNTS; i++) {
                String pk = account(i);
                c.putItem(b -> b.tableName(TABLE)
                        .item(Map.of("pk", s(pk), "balance", n(OPENING_BALANCE), "transfers", n(0), "touches", n(0))));
            }
            ConcurrentLinkedQueue<Transfer> committed = new ConcurrentLinkedQueue<>();
            AtomicLong touches = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + TOUCHERS + READERS);
            try {
                List<Future<?>> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    long seed = w;
                    writers.add(pool.submit(() -> transfers(c, new Random(seed), committed)));
                }
                for (int t = 0; t < TOUCHERS; t++) {
                    long seed = 100L + t;
                    writers.add(pool.submit(() -> touch(c, new Random(seed), touches)));
                }
                List<Future<?>> readers = new ArrayList<>();
                for (int r = 0; r < READERS; r++) {
                    readers.add(pool.submit(() -> readUntil(c, writing, reads)));
                }
                for (Future<?> f : writers) {
                    f.get();
                }
                writing.set(false);
                for (Future<?> f : readers) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(reads.get()).as("readers ran").isPositive();
            assertThat(committed).as("some transfers went through").isNotEmpty();
            assertFinalState(c, committed, touches.get());
        }
    }

    /** Moves random amounts; a refusal for lack of funds is an outcome, a conflict is retried. */
    private static void transfers(DynamoDbClient c, Random random, ConcurrentLinkedQueue<Transfer> committed) {
        for (int i = 0; i < TRANSFERS_PER_WRITER; i++) {
            int from = random.nextInt(ACCOUNTS);
            int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1L + random.nextInt(400);
            if (transfer(c, from, to, amount)) {
                committed.add(new Transfer(from, to, amount));
            }
        }
    }

    private static boolean transfer(DynamoDbClient c, int from, int to, long amount) {
        Map<String, AttributeValue> values = Map.of(":amount", n(amount), ":one", n(1));
        TransactWriteItem debit = TransactWriteItem.builder()
                .update(u -> u.tableName(TABLE)
                        .key(key(account(from)))
                        .updateExpression("SET balance = balance - :amount, transfers = transfers + :one")
                        .conditionExpression("balance >= :amount")
                        .expressionAttributeValues(values))
                .build();
        TransactWriteItem credit = TransactWriteItem.builder()
                .update(u -> u.tableName(TABLE)
                        .key(key(account(to)))
                        .updateExpression("SET balance = balance + :amount, transfers = transfers + :one")
                        .expressionAttributeValues(values))
                .build();
        for (int attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
            try {
                c.transactWriteItems(b -> b.transactItems(debit, credit));
                return true;
            } catch (TransactionCanceledException e) {
                List<String> codes = e.cancellationReasons().stream()
                        .map(CancellationReason::code)
                        .toList();
                if (!codes.contains("TransactionConflict")) {
                    assertThat(codes).containsExactly("ConditionalCheckFailed", "None");
                    return false;
                }
            }
        }
        throw new AssertionError("transfer still conflicting after " + ATTEMPTS_MAX + " attempts");
    }

    /** Plain UpdateItems on the same items; one refused because a transaction holds the item is retried. */
    private static void touch(DynamoDbClient c, Random random, AtomicLong touches) {
        for (int i = 0; i < TOUCHES_PER_TOUCHER; i++) {
            String pk = account(random.nextInt(ACCOUNTS));
            for (int attempt = 0; ; attempt++) {
                assertThat(attempt).as("touch attempts").isLessThan(ATTEMPTS_MAX);
                try {
                    c.updateItem(b -> b.tableName(TABLE)
                            .key(key(pk))
                            .updateExpression("ADD touches :one")
                            .expressionAttributeValues(Map.of(":one", n(1))));
                    touches.incrementAndGet();
                    break;
                } catch (TransactionConflictException e) {
                    // the item is in a transaction right now; try again
                }
            }
        }
    }

    private static void readUntil(DynamoDbClient c, AtomicBoolean writing, AtomicLong reads) {
        List<TransactGetItem> gets = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            gets.add(Txn.get(TABLE, account(i)));
        }
        do {
            List<ItemResponse> view =
                    c.transactGetItems(b -> b.transactItems(gets)).responses();
            long total = 0;
            long transfers = 0;
            for (ItemResponse r : view) {
                total += Long.parseLong(r.item().get("balance").n());
                transfers += Long.parseLong(r.item().get("transfers").n());
            }
            assertThat(total).as("total seen by one TransactGetItems").isEqualTo(TOTAL);
            assertThat(transfers % 2)
                    .as("each transfer touches two accounts, never one")
                    .isZero();
            reads.incrementAndGet();
        } while (writing.get());
    }

    private static void assertFinalState(DynamoDbClient c, ConcurrentLinkedQueue<Transfer> committed, long touches) {
        long[] expected = new long[ACCOUNTS];
        java.util.Arrays.fill(expected, OPENING_BALANCE);
        for (Transfer t : committed) {
            expected[t.from()] -= t.amount();
            expected[t.to()] += t.amount();
        }
        long total = 0;
        long transfers = 0;
        long touched = 0;
        for (int i = 0; i < ACCOUNTS; i++) {
            String pk = account(i);
            Map<String, AttributeValue> item = c.getItem(
                            b -> b.tableName(TABLE).key(key(pk)).consistentRead(true))
                    .item();
            long balance = Long.parseLong(item.get("balance").n());
            assertThat(balance).as("balance of " + pk).isEqualTo(expected[i]).isNotNegative();
            total += balance;
            transfers += Long.parseLong(item.get("transfers").n());
            touched += Long.parseLong(item.get("touches").n());
        }
        assertThat(total).isEqualTo(TOTAL);
        assertThat(transfers).as("no transfer lost").isEqualTo(2L * committed.size());
        assertThat(touched).as("no plain update lost").isEqualTo(touches);
    }
}
