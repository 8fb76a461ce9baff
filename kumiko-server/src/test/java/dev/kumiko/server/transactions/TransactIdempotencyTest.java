package dev.kumiko.server.transactions;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.put;
import static dev.kumiko.server.Txn.putIfAbsent;
import static dev.kumiko.server.Txn.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** ClientRequestToken: a retry of a committed request answers without running again. (Expiry: engine tests.) */
class TransactIdempotencyTest {
    private static final String MISMATCH = "DynamoDB rejected the request because you retried a request with a "
            + "different payload but with an idempotent token that was already used.";
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Txn.createHashTable(c, "idem");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static TransactWriteItem increment(String pk, Map<String, AttributeValue> values) {
        return TransactWriteItem.builder()
                .update(u -> u.tableName("idem")
                        .key(key(pk))
                        .updateExpression("ADD n :one SET tag = :tag")
                        .expressionAttributeValues(values))
                .build();
    }

    private static long counter(String pk) {
        return Long.parseLong(c.getItem(b -> b.tableName("idem").key(key(pk)).consistentRead(true))
                .item()
                .get("n")
                .n());
    }

    @Test
    void aRetryWithTheSameTokenDoesNotApplyTwice() {
        TransactWriteItemsRequest r = TransactWriteItemsRequest.builder()
                .clientRequestToken("token-once")
                .transactItems(
                        increment("once", Map.of(":one", n(1), ":tag", s("t"))),
                        putIfAbsent("idem", Map.of("pk", s("once-created"))))
                .build();
        c.transactWriteItems(r);
        c.transactWriteItems(r);
        assertThat(counter("once")).isEqualTo(1);
        // Asking for capacity on the retry does not make it a different request.
        var replay = c.transactWriteItems(r.toBuilder()
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build());
        assertThat(replay.consumedCapacity()).extracting(cc -> cc.tableName()).containsExactly("idem");
        assertThat(counter("once")).isEqualTo(1);
    }

    @Test
    void mapMemberOrderDoesNotMatter() {
        Map<String, AttributeValue> ab = new LinkedHashMap<>();
        ab.put(":one", n(1));
        ab.put(":tag", s("t"));
        Map<String, AttributeValue> ba = new LinkedHashMap<>();
        ba.put(":tag", s("t"));
        ba.put(":one", n(1));
        c.transactWriteItems(b -> b.clientRequestToken("token-order").transactItems(increment("order", ab)));
        c.transactWriteItems(b -> b.clientRequestToken("token-order").transactItems(increment("order", ba)));
        assertThat(counter("order")).isEqualTo(1);
    }

    @Test
    void aDifferentRequestWithAUsedTokenIsRefused() {
        c.transactWriteItems(b -> b.clientRequestToken("token-used")
                .transactItems(increment("used", Map.of(":one", n(1), ":tag", s("t")))));
        assertError(
                () -> c.transactWriteItems(b -> b.clientRequestToken("token-used")
                        .transactItems(increment("used", Map.of(":one", n(2), ":tag", s("t"))))),
                "IdempotentParameterMismatchException",
                MISMATCH);
        assertError(
                () -> c.transactWriteItems(b -> b.clientRequestToken("token-used")
                        .transactItems(increment("used", Map.of(":one", n(1), ":tag", s("t"))))
                        .returnItemCollectionMetrics("SIZE")),
                "IdempotentParameterMismatchException",
                MISMATCH);
        assertThat(counter("used")).isEqualTo(1);
    }

    @Test
    void aCancelledTransactionLeavesNothingToRepeat() {
        c.putItem(b -> b.tableName("idem").item(Map.of("pk", s("blocker"))));
        TransactWriteItemsRequest r = TransactWriteItemsRequest.builder()
                .clientRequestToken("token-retry")
                .transactItems(putIfAbsent("idem", Map.of("pk", s("blocker"))), put("idem", Map.of("pk", s("retried"))))
                .build();
        assertThatThrownBy(() -> c.transactWriteItems(r)).isInstanceOf(TransactionCanceledException.class);
        c.deleteItem(b -> b.tableName("idem").key(key("blocker")));
        c.transactWriteItems(r);
        assertThat(c.getItem(b -> b.tableName("idem").key(key("retried"))).hasItem())
                .isTrue();
    }
}
