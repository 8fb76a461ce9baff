package dev.kumiko.server.transactions;

import static dev.kumiko.server.Txn.check;
import static dev.kumiko.server.Txn.delete;
import static dev.kumiko.server.Txn.get;
import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.put;
import static dev.kumiko.server.Txn.putIfAbsent;
import static dev.kumiko.server.Txn.s;
import static dev.kumiko.server.Txn.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import dev.kumiko.server.protocol.WireProtocolTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** TransactWriteItems and TransactGetItems through the SDK: actions, all-or-nothing, cancellation reasons. */
class TransactWriteItemsTest {
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Txn.createHashTable(c, "txA");
        Txn.createHashTable(c, "txB");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, AttributeValue> item(String table, String pk) {
        var r = c.getItem(b -> b.tableName(table).key(key(pk)).consistentRead(true));
        return r.hasItem() ? r.item() : null;
    }

    private static TransactionCanceledException cancelled(List<TransactWriteItem> actions) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(
                () -> c.transactWriteItems(b -> b.transactItems(actions)));
        assertThat(t).isInstanceOf(TransactionCanceledException.class);
        return (TransactionCanceledException) t;
    }

    private static List<String> codes(TransactionCanceledException e) {
        return e.cancellationReasons().stream().map(CancellationReason::code).toList();
    }

    @Test
    void allFourActionsAcrossTwoTablesCommitTogether() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("all-upd"), "n", n(1))));
        c.putItem(b -> b.tableName("txB").item(Map.of("pk", s("all-del"))));
        c.putItem(b -> b.tableName("txB").item(Map.of("pk", s("all-chk"), "ok", s("yes"))));
        TransactWriteItemsResponse r = c.transactWriteItems(b -> b.transactItems(
                put("txA", Map.of("pk", s("all-put"), "v", s("new"))),
                update("txA", "all-upd", "SET n = n + :one", Map.of(":one", n(1))),
                delete("txB", "all-del"),
                check("txB", "all-chk", "ok = :yes").toBuilder()
                        .conditionCheck(cc -> cc.tableName("txB")
                                .key(key("all-chk"))
                                .conditionExpression("ok = :yes")
                                .expressionAttributeValues(Map.of(":yes", s("yes"))))
                        .build()));
        assertThat(r.hasConsumedCapacity()).isFalse();
        assertThat(item("txA", "all-put")).containsEntry("v", s("new"));
        assertThat(item("txA", "all-upd")).containsEntry("n", n(2));
        assertThat(item("txB", "all-del")).isNull();
        assertThat(item("txB", "all-chk")).containsEntry("ok", s("yes"));
    }

    @Test
    void aFailedConditionWritesNothingAndReasonsFollowActionOrder() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("cf-exists"), "v", s("old"))));
        TransactionCanceledException e = cancelled(List.of(
                put("txA", Map.of("pk", s("cf-new"), "v", s("x"))),
                putIfAbsent("txA", Map.of("pk", s("cf-exists"), "v", s("over"))),
                delete("txB", "cf-other")));
        assertThat(codes(e)).containsExactly("None", "ConditionalCheckFailed", "None");
        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo("Transaction cancelled, please refer cancellation reasons for specific reasons "
                        + "[None, ConditionalCheckFailed, None]");
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("TransactionCanceledException");
        CancellationReason failed = e.cancellationReasons().get(1);
        assertThat(failed.message()).isEqualTo("The conditional request failed");
        assertThat(failed.hasItem()).isFalse();
        assertThat(e.cancellationReasons().get(0).message()).isNull();
        assertThat(item("txA", "cf-new")).isNull();
        assertThat(item("txA", "cf-exists")).containsEntry("v", s("old"));
    }

    @Test
    void everyFailingActionIsReported() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("two-1"))));
        c.putItem(b -> b.tableName("txB").item(Map.of("pk", s("two-2"))));
        TransactionCanceledException e = cancelled(List.of(
                putIfAbsent("txA", Map.of("pk", s("two-1"))),
                check("txB", "two-missing", "attribute_exists(pk)"),
                putIfAbsent("txB", Map.of("pk", s("two-2")))));
        assertThat(codes(e))
                .containsExactly("ConditionalCheckFailed", "ConditionalCheckFailed", "ConditionalCheckFailed");
    }

    @Test
    void allOldReturnsTheItemThatFailedTheCondition() {
        Map<String, AttributeValue> stored = Map.of("pk", s("old-item"), "v", s("kept"));
        c.putItem(b -> b.tableName("txA").item(stored));
        TransactWriteItem failing = TransactWriteItem.builder()
                .update(u -> u.tableName("txA")
                        .key(key("old-item"))
                        .updateExpression("SET v = :v")
                        .conditionExpression("v = :other")
                        .expressionAttributeValues(Map.of(":v", s("new"), ":other", s("nope")))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                .build();
        TransactWriteItem missing = TransactWriteItem.builder()
                .conditionCheck(cc -> cc.tableName("txB")
                        .key(key("old-absent"))
                        .conditionExpression("attribute_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                .build();
        TransactionCanceledException e = cancelled(List.of(put("txB", Map.of("pk", s("old-other"))), failing, missing));
        assertThat(codes(e)).containsExactly("None", "ConditionalCheckFailed", "ConditionalCheckFailed");
        assertThat(e.cancellationReasons().get(1).item()).isEqualTo(stored);
        assertThat(e.cancellationReasons().get(2).hasItem())
                .as("no item to return")
                .isFalse();
        assertThat(item("txB", "old-other")).isNull();
    }

    @Test
    void aBadKeyCancelsWithAValidationErrorReason() {
        TransactionCanceledException e =
                cancelled(List.of(put("txA", Map.of("pk", s("bad-key-ok"))), put("txA", Map.of("pk", n(5)))));
        assertThat(codes(e)).containsExactly("None", "ValidationError");
        assertThat(e.cancellationReasons().get(1).message())
                .isEqualTo("One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
        TransactionCanceledException byKey = cancelled(List.of(TransactWriteItem.builder()
                .delete(d -> d.tableName("txA").key(Map.of("pk", n(5))))
                .build()));
        assertThat(codes(byKey)).containsExactly("ValidationError");
        assertThat(byKey.cancellationReasons().get(0).message())
                .isEqualTo("The provided key element does not match the schema");
        assertThat(item("txA", "bad-key-ok")).isNull();
    }

    @Test
    void anUpdateThatGrowsPast400KbCancelsWithAValidationErrorReason() {
        String big = "x".repeat(400 * 1024);
        TransactionCanceledException e =
                cancelled(List.of(update("txA", "too-big", "SET v = :v", Map.of(":v", s(big)))));
        assertThat(codes(e)).containsExactly("ValidationError");
        assertThat(e.cancellationReasons().get(0).message())
                .isEqualTo("Item size to update has exceeded the maximum allowed size");
    }

    @Test
    void anOperandOfTheWrongTypeCancelsWithAValidationErrorReason() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("wrong-type"), "n", s("text"))));
        TransactionCanceledException e =
                cancelled(List.of(update("txA", "wrong-type", "SET n = n + :one", Map.of(":one", n(1)))));
        assertThat(codes(e)).containsExactly("ValidationError");
        // UpdateItem's wording; whether DynamoDB's reason keeps the "Invalid UpdateExpression: " prefix is UNVERIFIED.
        assertThat(e.cancellationReasons().get(0).message())
                .isEqualTo("Invalid UpdateExpression: An operand in the update expression has an incorrect data type");
    }

    @Test
    void anUpdateOfAMissingItemCreatesItUnlessOnlyTheKeyWouldRemain() {
        c.transactWriteItems(b -> b.transactItems(
                update("txA", "upd-new", "SET v = :v", Map.of(":v", s("made"))),
                TransactWriteItem.builder()
                        .update(u -> u.tableName("txA").key(key("upd-none")).updateExpression("REMOVE v"))
                        .build()));
        assertThat(item("txA", "upd-new")).isEqualTo(Map.of("pk", s("upd-new"), "v", s("made")));
        assertThat(item("txA", "upd-none")).isNull();
    }

    @Test
    void capacityIsReportedPerTableAtTwiceTheStandardUnits() {
        TransactWriteItemsResponse r = c.transactWriteItems(b -> b.transactItems(
                        put("txA", Map.of("pk", s("cap-1"))),
                        put("txA", Map.of("pk", s("cap-2"))),
                        put("txB", Map.of("pk", s("cap-3"), "v", s("x".repeat(1500)))))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(r.consumedCapacity()).hasSize(2);
        assertThat(r.consumedCapacity().get(0).tableName()).isEqualTo("txA");
        assertThat(r.consumedCapacity().get(0).capacityUnits()).isEqualTo(4.0);
        assertThat(r.consumedCapacity().get(1).tableName()).isEqualTo("txB");
        assertThat(r.consumedCapacity().get(1).capacityUnits()).isEqualTo(4.0);
        TransactGetItemsResponse g = c.transactGetItems(b -> b.transactItems(get("txA", "cap-1"), get("txB", "cap-3"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(g.consumedCapacity()).extracting(cc -> cc.capacityUnits()).containsExactly(2.0, 2.0);
    }

    @Test
    void transactGetItemsAnswersInRequestOrderWithProjectionAndMissingItems() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("get-1"), "a", s("1"), "b", s("2"))));
        c.putItem(b -> b.tableName("txB")
                .item(Map.of(
                        "pk",
                        s("get-2"),
                        "m",
                        AttributeValue.builder()
                                .m(Map.of("x", s("in"), "y", s("out")))
                                .build())));
        TransactGetItemsResponse r = c.transactGetItems(b -> b.transactItems(
                get("txB", "get-2").toBuilder()
                        .get(g -> g.tableName("txB")
                                .key(key("get-2"))
                                .projectionExpression("#m.x")
                                .expressionAttributeNames(Map.of("#m", "m")))
                        .build(),
                get("txA", "get-missing"),
                get("txA", "get-1").toBuilder()
                        .get(g -> g.tableName("txA").key(key("get-1")).projectionExpression("b"))
                        .build()));
        assertThat(r.hasConsumedCapacity()).isFalse();
        assertThat(r.responses()).hasSize(3);
        assertThat(r.responses().get(0).item())
                .isEqualTo(Map.of(
                        "m", AttributeValue.builder().m(Map.of("x", s("in"))).build()));
        assertThat(r.responses().get(1).hasItem()).isFalse();
        assertThat(r.responses().get(2).item()).isEqualTo(Map.of("b", s("2")));
    }

    /** The body as captured from DynamoDB: reasons before a capital-M Message, None reasons bare. */
    @Test
    void theCancellationBodyHasDynamoDbsShape() throws Exception {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("wire"))));
        String body = "{\"TransactItems\":[{\"Put\":{\"TableName\":\"txA\",\"Item\":{\"pk\":{\"S\":\"wire-new\"}}}},"
                + "{\"ConditionCheck\":{\"TableName\":\"txA\",\"Key\":{\"pk\":{\"S\":\"wire\"}},"
                + "\"ConditionExpression\":\"attribute_not_exists(pk)\",\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}}]}";
        var request = java.net.http.HttpRequest.newBuilder(server.endpoint())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", WireProtocolTest.TARGET + "TransactWriteItems")
                .header("Authorization", WireProtocolTest.AUTH)
                .build();
        var response = java.net.http.HttpClient.newHttpClient()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .isEqualTo("{\"__type\":\"com.amazonaws.dynamodb.v20120810#TransactionCanceledException\","
                        + "\"CancellationReasons\":[{\"Code\":\"None\"},{\"Code\":\"ConditionalCheckFailed\","
                        + "\"Item\":{\"pk\":{\"S\":\"wire\"}},\"Message\":\"The conditional request failed\"}],"
                        + "\"Message\":\"Transaction cancelled, please refer cancellation reasons for specific reasons "
                        + "[None, ConditionalCheckFailed]\"}");
    }

    @Test
    void cancelledTransactionsAreNotSeenByReaders() {
        c.putItem(b -> b.tableName("txA").item(Map.of("pk", s("seen"), "v", s("before"))));
        assertThatThrownBy(() -> c.transactWriteItems(b -> b.transactItems(
                        update("txA", "seen", "SET v = :v", Map.of(":v", s("after"))),
                        check("txB", "seen-missing", "attribute_exists(pk)"))))
                .isInstanceOf(TransactionCanceledException.class);
        assertThat(c.transactGetItems(b -> b.transactItems(get("txA", "seen")))
                        .responses()
                        .get(0)
                        .item())
                .containsEntry("v", s("before"));
    }
}
