package dev.kumiko.server.partiql;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.partiql.PartiqlStatementTest.n;
import static dev.kumiko.server.partiql.PartiqlStatementTest.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** BatchExecuteStatement and ExecuteTransaction through the SDK. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartiqlBatchTransactionTest {
    static final String T = "pq-accounts";
    static final String MISMATCH = "DynamoDB rejected the request because you retried a request with a "
            + "different payload but with an idempotent token that was already used.";
    TestServer server;
    DynamoDbClient c;

    @BeforeAll
    void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(T)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        for (String id : List.of("a", "b", "c")) {
            c.putItem(b -> b.tableName(T).item(Map.of("id", s(id), "balance", n(100))));
        }
    }

    @AfterAll
    void stop() {
        server.close();
    }

    static BatchStatementRequest stmt(String statement, AttributeValue... parameters) {
        return BatchStatementRequest.builder()
                .statement(statement)
                .parameters(parameters.length == 0 ? null : List.of(parameters))
                .build();
    }

    static ParameterizedStatement tx(String statement, AttributeValue... parameters) {
        return ParameterizedStatement.builder()
                .statement(statement)
                .parameters(parameters.length == 0 ? null : List.of(parameters))
                .build();
    }

    @Test
    void batchOfReadsAnswersEachInOrder() {
        BatchExecuteStatementResponse r = c.batchExecuteStatement(b -> b.statements(
                        stmt("SELECT * FROM \"pq-accounts\" WHERE id = 'a'"),
                        stmt("SELECT balance FROM \"pq-accounts\" WHERE id = ?", s("b")),
                        stmt("SELECT * FROM \"pq-accounts\" WHERE id = 'nobody'"),
                        stmt("SELECT * FROM \"pq-accounts\" WHERE balance > 1"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        List<BatchStatementResponse> out = r.responses();
        assertThat(out).hasSize(4);
        assertThat(out.get(0).item()).isEqualTo(Map.of("id", s("a"), "balance", n(100)));
        assertThat(out.get(0).tableName()).isEqualTo(T);
        assertThat(out.get(1).item()).isEqualTo(Map.of("balance", n(100)));
        assertThat(out.get(2).hasItem()).isFalse();
        assertThat(out.get(2).error()).isNull();
        assertThat(out.get(3).error().codeAsString()).isEqualTo("ValidationError");
        assertThat(out.get(3).error().message())
                .isEqualTo(
                        "Select statements within BatchExecuteStatement must specify the primary key in the where clause.");
        assertThat(r.consumedCapacity()).hasSize(1);
        assertThat(r.consumedCapacity().get(0).capacityUnits()).isEqualTo(1.5); // three eventually consistent reads
    }

    @Test
    void batchOfWritesReportsErrorsPerStatement() {
        BatchExecuteStatementResponse r = c.batchExecuteStatement(b -> b.statements(
                stmt("INSERT INTO \"pq-accounts\" VALUE {'id': 'w1', 'balance': 1}"),
                stmt("INSERT INTO \"pq-accounts\" VALUE {'id': 'a', 'balance': 1}"),
                stmt("UPDATE \"pq-accounts\" SET balance = 7 WHERE id = 'c' AND balance = 0"),
                stmt("UPDATE \"pq-accounts\" SET balance = 0 WHERE id = 'w1' RETURNING ALL NEW *"),
                BatchStatementRequest.builder()
                        .statement("DELETE FROM \"pq-accounts\" WHERE id = 'b' AND balance = 0")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build(),
                stmt("DELETE FROM \"pq-accounts\" WHERE"),
                stmt("DELETE FROM \"no-such-table\" WHERE id = 'x'")));
        List<BatchStatementResponse> out = r.responses();
        assertThat(out.get(0).error()).isNull();
        assertThat(out.get(1).error().codeAsString()).isEqualTo("DuplicateItem");
        assertThat(out.get(1).error().message()).isEqualTo("Duplicate primary key exists in table");
        assertThat(out.get(2).error().codeAsString()).isEqualTo("ConditionalCheckFailed");
        assertThat(out.get(2).error().hasItem()).isFalse();
        assertThat(out.get(3).item()).isEqualTo(Map.of("id", s("w1"), "balance", n(0)));
        assertThat(out.get(4).error().codeAsString()).isEqualTo("ConditionalCheckFailed");
        assertThat(out.get(4).error().item()).containsEntry("id", s("b")).containsKey("balance");
        assertThat(out.get(5).error().codeAsString()).isEqualTo("ValidationError");
        assertThat(out.get(6).error().codeAsString()).isEqualTo("ResourceNotFound");
        assertThat(c.getItem(b -> b.tableName(T).key(Map.of("id", s("c"))))
                        .item()
                        .get("balance"))
                .isEqualTo(n(100));
    }

    @Test
    void batchLimits() {
        List<BatchStatementRequest> many = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            many.add(stmt("SELECT * FROM \"pq-accounts\" WHERE id = 'a'"));
        }
        assertValidation(
                () -> c.batchExecuteStatement(b -> b.statements(many)),
                "1 validation error detected: Value '[...]' at 'statements' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 25");
        assertThat(c.batchExecuteStatement(b -> b.statements(many.subList(0, 25)))
                        .responses())
                .hasSize(25);
    }

    @Test
    void transactionOfWritesIsAtomic() {
        ExecuteTransactionResponse ok = c.executeTransaction(b -> b.transactStatements(
                        tx("UPDATE \"pq-accounts\" SET balance = balance - 10 WHERE id = 'a'"),
                        tx("UPDATE \"pq-accounts\" SET balance = balance + ? WHERE id = 'b'", n(10)),
                        tx("INSERT INTO \"pq-accounts\" VALUE {'id': 't1', 'balance': 0}"),
                        tx("EXISTS(SELECT * FROM \"pq-accounts\" WHERE id = 'c' AND balance = 100)"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(ok.responses()).isEmpty();
        TransactWriteItemsResponse same = c.transactWriteItems(b -> b.transactItems(
                        t -> t.update(u -> u.tableName(T)
                                .key(Map.of("id", s("z1")))
                                .updateExpression("SET balance = :v")
                                .expressionAttributeValues(Map.of(":v", n(1)))),
                        t -> t.update(u -> u.tableName(T)
                                .key(Map.of("id", s("z2")))
                                .updateExpression("SET balance = :v")
                                .expressionAttributeValues(Map.of(":v", n(1)))),
                        t -> t.put(p -> p.tableName(T).item(Map.of("id", s("z3"), "balance", n(0)))),
                        t -> t.conditionCheck(k ->
                                k.tableName(T).key(Map.of("id", s("c"))).conditionExpression("attribute_exists(id)")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(ok.consumedCapacity()).isEqualTo(same.consumedCapacity());
        assertThat(balance("a")).isEqualTo("90");
        assertThat(balance("b")).isEqualTo("110");

        assertThatThrownBy(() -> c.executeTransaction(b -> b.transactStatements(
                        tx("UPDATE \"pq-accounts\" SET balance = 0 WHERE id = 'a'"),
                        tx("INSERT INTO \"pq-accounts\" VALUE {'id': 'b', 'balance': 0}"),
                        ParameterizedStatement.builder()
                                .statement("DELETE FROM \"pq-accounts\" WHERE id = 'c' AND balance = 1")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                                .build())))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    List<CancellationReason> reasons = e.cancellationReasons();
                    assertThat(reasons)
                            .extracting(CancellationReason::code)
                            .containsExactly("None", "DuplicateItem", "ConditionalCheckFailed");
                    assertThat(reasons.get(2).item()).isEqualTo(Map.of("id", s("c"), "balance", n(100)));
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo(
                                    "Transaction cancelled, please refer "
                                            + "cancellation reasons for specific reasons [None, DuplicateItem, ConditionalCheckFailed]");
                });
        assertThat(balance("a")).isEqualTo("90");
    }

    @Test
    void transactionOfReads() {
        ExecuteTransactionResponse r = c.executeTransaction(b -> b.transactStatements(
                tx("SELECT * FROM \"pq-accounts\" WHERE id = 'c'"),
                tx("SELECT balance FROM \"pq-accounts\" WHERE id = 'nobody'")));
        assertThat(r.responses()).hasSize(2);
        assertThat(r.responses().get(0).item()).isEqualTo(Map.of("id", s("c"), "balance", n(100)));
        assertThat(r.responses().get(1).hasItem()).isFalse();
        assertValidation(
                () -> c.executeTransaction(b -> b.transactStatements(
                        tx("SELECT * FROM \"pq-accounts\" WHERE id = 'c' AND attribute_exists(balance)"))),
                "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify "
                        + "the primary key in the where clause.");
        assertValidation(
                () -> c.executeTransaction(b -> b.transactStatements(
                        tx("EXISTS(SELECT * FROM \"pq-accounts\" WHERE id = 'c')"),
                        tx("UPDATE \"pq-accounts\" SET z = 1 WHERE id = 'c'"))),
                "Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional condition");
    }

    @Test
    void clientRequestTokenMakesATransactionIdempotent() {
        List<ParameterizedStatement> add =
                List.of(tx("UPDATE \"pq-accounts\" SET balance = balance + 1 WHERE id = 'idem'"));
        c.putItem(b -> b.tableName(T).item(Map.of("id", s("idem"), "balance", n(0))));
        c.executeTransaction(b -> b.transactStatements(add).clientRequestToken("pq-token-1"));
        c.executeTransaction(b -> b.transactStatements(add).clientRequestToken("pq-token-1"));
        assertThat(balance("idem")).isEqualTo("1");
        c.executeTransaction(b -> b.transactStatements(add).clientRequestToken("pq-token-2"));
        assertThat(balance("idem")).isEqualTo("2");
        assertError(
                () -> c.executeTransaction(b -> b.transactStatements(
                                tx("UPDATE \"pq-accounts\" SET balance = balance + 5 WHERE id = 'idem'"))
                        .clientRequestToken("pq-token-1")),
                "IdempotentParameterMismatchException",
                MISMATCH);
    }

    @Test
    void transactionLimits() {
        List<ParameterizedStatement> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(tx("INSERT INTO \"pq-accounts\" VALUE {'id': 'many" + i + "'}"));
        }
        assertValidation(
                () -> c.executeTransaction(b -> b.transactStatements(many)),
                "1 validation error detected: Value '[...]' at 'transactStatements' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 100");
        c.executeTransaction(b -> b.transactStatements(many.subList(0, 100)));
        assertThat(c.getItem(b -> b.tableName(T).key(Map.of("id", s("many99")))).hasItem())
                .isTrue();
    }

    String balance(String id) {
        return c.getItem(b -> b.tableName(T).key(Map.of("id", s(id))).consistentRead(true))
                .item()
                .get("balance")
                .n();
    }
}
