package dev.kumiko.server.transactions;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.Txn.check;
import static dev.kumiko.server.Txn.delete;
import static dev.kumiko.server.Txn.get;
import static dev.kumiko.server.Txn.key;
import static dev.kumiko.server.Txn.n;
import static dev.kumiko.server.Txn.put;
import static dev.kumiko.server.Txn.s;
import static dev.kumiko.server.Txn.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Every refusal of TransactWriteItems and TransactGetItems with DynamoDB's exact type and message,
 * and the order in which they fire (docs/notes/error-messages.md). Nothing refused is written.
 */
class TransactValidationTest {
    private static final String ENUM_RCC = "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: "
            + "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]";
    private static final String ENUM_RICM = "Value 'BOGUS2' at 'returnItemCollectionMetrics' failed to satisfy "
            + "constraint: Member must satisfy enum value set: [SIZE, NONE]";
    private static final String EMPTY_KEY = "One or more parameter values are not valid. The AttributeValue for a key "
            + "attribute cannot contain an empty string value. Key: pk";
    private static final String MULTIPLE = "Transaction request cannot include multiple operations on one item";
    static TestServer server;
    static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Txn.createHashTable(c, "txv");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void assertAbsent(String pk) {
        assertThat(c.getItem(b -> b.tableName("txv").key(key(pk)).consistentRead(true))
                        .hasItem())
                .isFalse();
    }

    private static ThrowingCallable write(TransactWriteItem... actions) {
        return () -> c.transactWriteItems(b -> b.transactItems(actions));
    }

    private static ThrowingCallable read(TransactGetItem... gets) {
        return () -> c.transactGetItems(b -> b.transactItems(gets));
    }

    private static void assertCancelled(ThrowingCallable call, List<String> codes, String message) {
        Throwable t = catchThrowable(call);
        assertThat(t).isInstanceOf(TransactionCanceledException.class);
        TransactionCanceledException e = (TransactionCanceledException) t;
        assertThat(e.cancellationReasons().stream()
                        .map(CancellationReason::code)
                        .toList())
                .isEqualTo(codes);
        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo("Transaction cancelled, please refer cancellation reasons for specific reasons " + codes);
        int failing = codes.indexOf("ValidationError");
        assertThat(e.cancellationReasons().get(failing).message()).isEqualTo(message);
    }

    @Test
    void transactItemsLength() {
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(List.of())),
                "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
        List<TransactWriteItem> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(put("txv", Map.of("pk", s("many-" + i))));
        }
        // DynamoDB echoes the whole list here; Kumiko renders it as "[...]".
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(many)),
                "1 validation error detected: Value '[...]' at 'transactItems' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 100");
        assertAbsent("many-0");
        assertValidation(
                () -> c.transactGetItems(b -> b.transactItems(List.of())),
                "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
    }

    @Test
    void memberConstraintsAreReportedTogetherTokenFirst() {
        String token = "x".repeat(37);
        String tokenError = "Value '" + token + "' at 'clientRequestToken' failed to satisfy constraint: "
                + "Member must have length less than or equal to 36";
        assertValidation(
                () -> c.transactWriteItems(
                        b -> b.transactItems(put("txv", key("tok"))).clientRequestToken(token)),
                "1 validation error detected: " + tokenError);
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(put("txv", key("tok")))
                        .clientRequestToken(token)
                        .returnConsumedCapacity("BOGUS")),
                "2 validation errors detected: " + tokenError + "; " + ENUM_RCC);
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(put("txv", key("tok")))
                        .returnConsumedCapacity("BOGUS")
                        .returnItemCollectionMetrics("BOGUS2")),
                "2 validation errors detected: " + ENUM_RCC + "; " + ENUM_RICM);
        assertAbsent("tok");
        assertValidation(
                () -> c.transactGetItems(b -> b.transactItems(get("txv", "tok")).returnConsumedCapacity("BOGUS")),
                "1 validation error detected: " + ENUM_RCC);
    }

    @Test
    void enumsComeBeforeMissingTablesAndDuplicates() {
        assertValidation(
                () -> c.transactWriteItems(
                        b -> b.transactItems(put("no-such-table", key("a"))).returnConsumedCapacity("BOGUS")),
                "1 validation error detected: " + ENUM_RCC);
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(put("txv", key("dup")), delete("txv", "dup"))
                        .returnConsumedCapacity("BOGUS")),
                "1 validation error detected: " + ENUM_RCC);
        assertValidation(
                () -> c.transactGetItems(b ->
                        b.transactItems(get("txv", "dup"), get("txv", "dup")).returnConsumedCapacity("BOGUS")),
                "1 validation error detected: " + ENUM_RCC);
    }

    @Test
    void nestedRequiredMembers() {
        // Paths follow the model's lowerCamelCase convention; DynamoDB's text for these is UNVERIFIED.
        assertValidation(
                write(TransactWriteItem.builder()
                        .conditionCheck(cc -> cc.tableName("txv").key(key("x")))
                        .build()),
                "1 validation error detected: Value null at 'transactItems.1.member.conditionCheck.conditionExpression' "
                        + "failed to satisfy constraint: Member must not be null");
        assertValidation(
                write(
                        put("txv", key("ok")),
                        TransactWriteItem.builder().update(u -> u.key(key("x"))).build()),
                "2 validation errors detected: Value null at 'transactItems.2.member.update.tableName' failed to "
                        + "satisfy constraint: Member must not be null; Value null at "
                        + "'transactItems.2.member.update.updateExpression' failed to satisfy constraint: Member must "
                        + "not be null");
        assertValidation(
                write(TransactWriteItem.builder()
                        .put(p -> p.tableName("txv").item(key("x")).returnValuesOnConditionCheckFailure("SOME"))
                        .build()),
                "1 validation error detected: Value 'SOME' at "
                        + "'transactItems.1.member.put.returnValuesOnConditionCheckFailure' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [ALL_OLD, NONE]");
        assertValidation(
                read(TransactGetItem.builder().build()),
                "1 validation error detected: Value null at 'transactItems.1.member.get' failed to satisfy "
                        + "constraint: Member must not be null");
    }

    @Test
    void exactlyOneOperationPerAction() {
        assertValidation(
                write(TransactWriteItem.builder()
                        .put(p -> p.tableName("txv").item(key("two")))
                        .delete(d -> d.tableName("txv").key(key("two")))
                        .build()),
                "TransactItems can only contain one of Check, Put, Update or Delete");
        assertValidation(
                write(TransactWriteItem.builder().build()),
                "TransactItems can only contain one of Check, Put, Update or Delete");
        assertAbsent("two");
    }

    @Test
    void duplicateTargets() {
        assertValidation(write(put("txv", key("d1")), put("txv", key("d1"))), MULTIPLE);
        assertValidation(
                write(
                        check("txv", "d2", "attribute_not_exists(pk)"),
                        update("txv", "d2", "SET v = :v", Map.of(":v", s("x")))),
                MULTIPLE);
        assertValidation(read(get("txv", "d3"), get("txv", "d3")), MULTIPLE);
        assertAbsent("d1");
        assertAbsent("d2");
    }

    @Test
    void missingTables() {
        assertError(
                write(put("txv", key("rnf")), put("no-such-table", key("a"))),
                "ResourceNotFoundException",
                "Requested resource not found");
        assertError(read(get("no-such-table", "a")), "ResourceNotFoundException", "Requested resource not found");
        assertAbsent("rnf");
    }

    @Test
    void expressionErrorsOnAnyActionComeBeforeMissingTables() {
        assertValidation(
                write(put("no-such-table", key("a")), check("txv", "cc", "attribute_not_exists(")),
                "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"(\"");
        TransactWriteItem unused = TransactWriteItem.builder()
                .conditionCheck(cc -> cc.tableName("txv")
                        .key(key("cc"))
                        .conditionExpression("attribute_not_exists(pk)")
                        .expressionAttributeValues(Map.of(":v", s("x"))))
                .build();
        assertValidation(
                write(put("no-such-table", key("a")), unused),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}");
        assertValidation(
                write(unused, put("no-such-table", key("a"))),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}");
        assertValidation(
                write(put("txv", key("cc")), unused),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}");
        assertAbsent("cc");
        assertValidation(
                read(TransactGetItem.builder()
                        .get(g -> g.tableName("no-such-table").key(key("p")).projectionExpression("!!!"))
                        .build()),
                "Invalid ProjectionExpression: Syntax error; token: \"!\", near: \"!!\"");
    }

    @Test
    void emptyKeyValuesAreRefusedUpFront() {
        assertValidation(write(put("txv", key("ek")), put("txv", Map.of("pk", s("")))), EMPTY_KEY);
        assertValidation(write(update("txv", "", "SET v = :v", Map.of(":v", s("x")))), EMPTY_KEY);
        assertValidation(write(delete("txv", "")), EMPTY_KEY);
        assertValidation(write(check("txv", "", "attribute_exists(pk)")), EMPTY_KEY);
        assertValidation(read(get("txv", "")), EMPTY_KEY);
        assertAbsent("ek");
    }

    @Test
    void keysOfTheWrongShapeCancelWithAValidationErrorReason() {
        String mismatch = "The provided key element does not match the schema";
        assertCancelled(
                write(put("txv", Map.of("pk", AttributeValue.builder().l(s("x")).build()))),
                List.of("ValidationError"),
                "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: L");
        assertCancelled(
                write(put("txv", Map.of("other", s("x")))),
                List.of("ValidationError"),
                "One or more parameter values were invalid: Missing the key pk in the item");
        assertCancelled(
                write(TransactWriteItem.builder()
                        .update(u -> u.tableName("txv")
                                .key(Map.of("pk", n(1)))
                                .updateExpression("SET v = :v")
                                .expressionAttributeValues(Map.of(":v", s("x"))))
                        .build()),
                List.of("ValidationError"),
                mismatch);
        assertCancelled(
                write(TransactWriteItem.builder()
                        .conditionCheck(cc -> cc.tableName("txv")
                                .key(Map.of("pk", s("x"), "extra", s("y")))
                                .conditionExpression("attribute_exists(pk)"))
                        .build()),
                List.of("ValidationError"),
                mismatch);
        assertCancelled(
                read(
                        get("txv", "fine"),
                        TransactGetItem.builder()
                                .get(g -> g.tableName("txv").key(Map.of()))
                                .build()),
                List.of("None", "ValidationError"),
                mismatch);
    }

    @Test
    void anUpdateMayNotTouchTheKey() {
        assertValidation(
                write(update("txv", "k", "SET pk = :v", Map.of(":v", s("x")))),
                "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key");
    }

    @Test
    void itemSizes() {
        String big = "x".repeat(400 * 1024);
        assertValidation(
                write(put("txv", key("small")), put("txv", Map.of("pk", s("big"), "v", s(big)))),
                "Item size has exceeded the maximum allowed size");
        assertAbsent("small");
        List<TransactWriteItem> heavy = new ArrayList<>();
        String chunk = "y".repeat(390 * 1024);
        for (int i = 0; i < 11; i++) {
            heavy.add(put("txv", Map.of("pk", s("heavy-" + i), "v", s(chunk))));
        }
        // UNVERIFIED wording: DynamoDB documents the 4 MB limit, not its message.
        assertValidation(
                () -> c.transactWriteItems(b -> b.transactItems(heavy)),
                "Aggregate size of the items in the transaction has exceeded the maximum allowed size of 4 MB");
        assertAbsent("heavy-0");
        c.transactWriteItems(b -> b.transactItems(heavy.subList(0, 10)));
        assertThat(c.transactGetItems(b -> b.transactItems(get("txv", "heavy-0"), get("txv", "heavy-9")))
                        .responses())
                .allMatch(r -> r.hasItem());
    }
}
