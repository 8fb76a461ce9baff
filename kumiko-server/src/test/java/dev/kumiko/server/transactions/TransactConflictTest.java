package dev.kumiko.server.transactions;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.Txn.get;
import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.put;
import static dev.kumiko.server.Txn.s;
import static dev.kumiko.server.Txn.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kumiko.keys.KeySpace;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.storage.ForwardingStore;
import dev.kumiko.storage.ForwardingTransaction;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * What other requests meet while a transaction is in flight. The store parks the transaction's
 * commit until the test releases it, so "in flight" is a state the test controls, not a race.
 */
class TransactConflictTest {
    /** A bound on waiting for the parked transaction to arrive; reaching it fails the test. */
    private static final long ARRIVAL_WAIT_SECONDS = 60;

    private static final String ONGOING = "Transaction is ongoing for the item";

    /**
     * Parks the first batch of item writes committed after {@link #arm} until {@link #release}, over
     * the store the suite runs on. A transaction parks holding what it holds in that store.
     */
    static final class ParkingStore extends ForwardingStore {
        private final AtomicBoolean armed = new AtomicBoolean();
        private final CountDownLatch parked = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        ParkingStore(Store inner) {
            super(inner);
        }

        void arm() {
            armed.set(true);
        }

        void awaitParked() throws InterruptedException {
            assertThat(parked.await(ARRIVAL_WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("transaction reached its commit")
                    .isTrue();
        }

        void release() {
            released.countDown();
        }

        @Override
        public void apply(WriteBatch batch) {
            parkIfArmed(batch);
            super.apply(batch);
        }

        @Override
        public Transaction begin(byte[][] keys, TransactionMode mode) {
            return new ForwardingTransaction(super.begin(keys, mode)) {
                @Override
                public void commit(WriteBatch batch) {
                    parkIfArmed(batch);
                    super.commit(batch);
                }
            };
        }

        private void parkIfArmed(WriteBatch batch) {
            // Only a batch that writes items: background tasks (leases, the catalog) write too.
            if (!writesItems(batch) || !armed.compareAndSet(true, false)) {
                return;
            }
            parked.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private static boolean writesItems(WriteBatch batch) {
            return batch.ops().stream().anyMatch(op -> op.key().length > 0 && op.key()[0] == KeySpace.ITEMS);
        }
    }

    private ParkingStore store;
    private TestServer server;
    private DynamoDbClient c;

    @BeforeEach
    void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY, inner -> store = new ParkingStore(inner));
        c = server.client();
        Txn.createHashTable(c, "acct");
        c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("held"), "v", s("before"))));
        c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("free"), "v", s("before"))));
    }

    @AfterEach
    void stop() {
        store.release();
        server.close();
    }

    private static final TransactWriteItemsRequest IN_FLIGHT = TransactWriteItemsRequest.builder()
            .clientRequestToken("in-flight-token")
            .transactItems(
                    update("acct", "held", "SET v = :v", Map.of(":v", s("after"))),
                    put("acct", Map.of("pk", s("written-too"))))
            .build();

    /** Starts IN_FLIGHT and returns once it is parked at its commit, holding "held" and "written-too". */
    private CompletableFuture<Void> parkTransaction() throws InterruptedException {
        store.arm();
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> c.transactWriteItems(IN_FLIGHT));
        store.awaitParked();
        return done;
    }

    @Test
    void plainWritesToAHeldItemFailWithTransactionConflict() throws Exception {
        CompletableFuture<Void> inFlight = parkTransaction();
        assertError(
                () -> c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("held")))),
                "TransactionConflictException",
                ONGOING);
        assertError(
                () -> c.updateItem(b -> b.tableName("acct")
                        .key(key("held"))
                        .updateExpression("SET v = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                "TransactionConflictException",
                ONGOING);
        assertError(
                () -> c.deleteItem(b -> b.tableName("acct").key(key("written-too"))),
                "TransactionConflictException",
                ONGOING);
        store.release();
        inFlight.get(ARRIVAL_WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(c.getItem(b -> b.tableName("acct").key(key("held"))).item()).containsEntry("v", s("after"));
        c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("held"), "v", s("later"))));
        assertThat(c.getItem(b -> b.tableName("acct").key(key("held"))).item()).containsEntry("v", s("later"));
    }

    @Test
    void aTransactionOnAHeldItemIsCancelledWithTransactionConflict() throws Exception {
        CompletableFuture<Void> inFlight = parkTransaction();
        Throwable t = catchThrowable(() -> c.transactWriteItems(b -> b.transactItems(
                put("acct", Map.of("pk", s("unrelated"))), update("acct", "held", "SET n = :n", Map.of(":n", n(1))))));
        assertThat(t).isInstanceOf(TransactionCanceledException.class);
        TransactionCanceledException e = (TransactionCanceledException) t;
        assertThat(e.cancellationReasons())
                .extracting(CancellationReason::code)
                .containsExactly("None", "TransactionConflict");
        assertThat(e.cancellationReasons().get(1).message()).isEqualTo(ONGOING);
        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo(
                        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]");
        store.release();
        inFlight.get(ARRIVAL_WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(c.getItem(b -> b.tableName("acct").key(key("unrelated"))).hasItem())
                .as("the cancelled transaction wrote nothing")
                .isFalse();
        assertThat(c.getItem(b -> b.tableName("acct").key(key("held"))).item()).doesNotContainKey("n");
    }

    @Test
    void readersAndOtherItemsAreNotHeldUp() throws Exception {
        CompletableFuture<Void> inFlight = parkTransaction();
        var view = c.transactGetItems(b -> b.transactItems(get("acct", "held"), get("acct", "written-too")));
        assertThat(view.responses().get(0).item()).containsEntry("v", s("before"));
        assertThat(view.responses().get(1).hasItem()).isFalse();
        assertThat(c.getItem(b -> b.tableName("acct").key(key("held"))).item()).containsEntry("v", s("before"));
        c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("free"), "v", s("during"))));
        c.transactWriteItems(b -> b.transactItems(update("acct", "free", "SET w = :w", Map.of(":w", s("tx")))));
        assertThat(c.getItem(b -> b.tableName("acct").key(key("free"))).item())
                .containsEntry("v", s("during"))
                .containsEntry("w", s("tx"));
        store.release();
        inFlight.get(ARRIVAL_WAIT_SECONDS, TimeUnit.SECONDS);
        view = c.transactGetItems(b -> b.transactItems(get("acct", "held"), get("acct", "written-too")));
        assertThat(view.responses()).allMatch(r -> r.hasItem());
    }

    @Test
    void aRetryOfTheSameTokenWhileTheFirstRunsIsInProgress() throws Exception {
        CompletableFuture<Void> inFlight = parkTransaction();
        assertError(
                () -> c.transactWriteItems(IN_FLIGHT),
                "TransactionInProgressException",
                "Transaction from previous request is still in progress");
        TransactWriteItemsRequest different = IN_FLIGHT.toBuilder()
                .transactItems(List.<TransactWriteItem>of(put("acct", Map.of("pk", s("elsewhere")))))
                .build();
        if (store.local()) {
            assertError(
                    () -> c.transactWriteItems(different),
                    "IdempotentParameterMismatchException",
                    "DynamoDB rejected the request because you retried a request with a different payload but with an "
                            + "idempotent token that was already used.");
        } else {
            // Over a store shared by processes no engine knows what another's running transaction
            // asked, so every retry that races the first call is in progress (ClientTokens).
            assertError(
                    () -> c.transactWriteItems(different),
                    "TransactionInProgressException",
                    "Transaction from previous request is still in progress");
        }
        store.release();
        inFlight.get(ARRIVAL_WAIT_SECONDS, TimeUnit.SECONDS);
        c.putItem(b -> b.tableName("acct").item(Map.of("pk", s("held"), "v", s("changed since"))));
        c.transactWriteItems(IN_FLIGHT);
        assertThat(c.getItem(b -> b.tableName("acct").key(key("held"))).item())
                .as("the replay answered without running again")
                .containsEntry("v", s("changed since"));
    }
}
