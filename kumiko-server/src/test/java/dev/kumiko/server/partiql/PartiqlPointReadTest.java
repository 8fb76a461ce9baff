package dev.kumiko.server.partiql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A SELECT that names an item by its whole key runs as a point read (PqPlanner.pointKey). Each statement
 * here is run as written and again with a filter that keeps every item, which the planner runs as
 * a Query: the two answers must be the same, items, NextToken, consumed capacity and errors, over
 * present, missing and large items, projections (nested, overlapping, under a key, of nothing),
 * both read consistencies, every capacity mode, key values of the wrong type, empty or too long,
 * and a hash-only table with a binary key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartiqlPointReadTest {
    private static final String ORDERS = "pq-point-orders";
    private static final String BLOBS = "pq-point-blobs";
    /** A filter every item passes, which turns a point read back into a Query. */
    private static final String KEEP_ALL = " AND (note IS MISSING OR note IS NOT MISSING)";

    private TestServer server;
    private DynamoDbClient c;

    @BeforeAll
    void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(ORDERS)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        c.createTable(b -> b.tableName(BLOBS)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.B))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
        c.putItem(b -> b.tableName(ORDERS)
                .item(Map.of(
                        "pk",
                        s("cust#1"),
                        "sk",
                        n("1"),
                        "total",
                        n("10"),
                        "info",
                        AttributeValue.fromM(Map.of("city", s("Kyoto"))))));
        c.putItem(b -> b.tableName(ORDERS).item(Map.of("pk", s("cust#1"), "sk", n("2"), "note", s("x".repeat(9_000)))));
        c.putItem(b -> b.tableName(BLOBS).item(Map.of("id", bytes(1, 2, 3), "size", n("3"))));
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    void aReadByTheWholeKeyAnswersAsTheQueryDoes() {
        List<String> statements = List.of(
                "SELECT * FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?",
                "SELECT * FROM \"" + ORDERS + "\" WHERE sk = ? AND pk = ?",
                "SELECT total, pk FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?",
                "SELECT info.city FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?",
                "SELECT total, total FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?",
                "SELECT pk.x FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?",
                "SELECT nothing FROM \"" + ORDERS + "\" WHERE pk = ? AND sk = ?");
        List<List<AttributeValue>> parameters = List.of(
                List.of(s("cust#1"), n("1")),
                List.of(s("cust#1"), n("2")),
                List.of(s("cust#1"), n("3")),
                List.of(s("cust#9"), n("1")),
                List.of(s("cust#1"), s("1")),
                List.of(s(""), n("1")),
                List.of(s("k".repeat(2049)), n("1")));
        int compared = 0;
        for (String statement : statements) {
            for (List<AttributeValue> p : parameters) {
                List<AttributeValue> bound = statement.contains("sk = ? AND pk") ? List.of(p.get(1), p.get(0)) : p;
                for (Boolean consistent : new Boolean[] {null, true, false}) {
                    for (ReturnConsumedCapacity mode : new ReturnConsumedCapacity[] {
                        null, ReturnConsumedCapacity.TOTAL, ReturnConsumedCapacity.INDEXES, ReturnConsumedCapacity.NONE
                    }) {
                        assertSameAnswer(statement, bound, consistent, mode);
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(7 * 7 * 3 * 4);
    }

    @Test
    void aHashOnlyTableWithABinaryKeyToo() {
        String statement = "SELECT * FROM \"" + BLOBS + "\" WHERE id = ?";
        for (AttributeValue id : List.of(bytes(1, 2, 3), bytes(9), bytes(), s("abc"))) {
            for (ReturnConsumedCapacity mode :
                    new ReturnConsumedCapacity[] {ReturnConsumedCapacity.TOTAL, ReturnConsumedCapacity.INDEXES}) {
                assertSameAnswer(statement, List.of(id), true, mode);
            }
        }
        assertThat(run(statement, List.of(bytes(1, 2, 3)), null, null).items()).hasSize(1);
    }

    /** The statement as written and with KEEP_ALL give equal answers, or errors of one type and message. */
    private void assertSameAnswer(
            String statement, List<AttributeValue> parameters, Boolean consistent, ReturnConsumedCapacity mode) {
        String why = statement + " "
                + parameters
                        .toString()
                        .substring(0, Math.min(80, parameters.toString().length())) + " consistent=" + consistent
                + " capacity=" + mode;
        Object point = answer(statement, parameters, consistent, mode);
        Object query = answer(statement + KEEP_ALL, parameters, consistent, mode);
        assertThat(point).as(why).isEqualTo(query);
    }

    private Object answer(
            String statement, List<AttributeValue> parameters, Boolean consistent, ReturnConsumedCapacity mode) {
        try {
            ExecuteStatementResponse r = run(statement, parameters, consistent, mode);
            return List.of(
                    r.items(),
                    String.valueOf(r.nextToken()),
                    String.valueOf(r.lastEvaluatedKey()),
                    String.valueOf(r.consumedCapacity()));
        } catch (DynamoDbException e) {
            return List.of(
                    e.statusCode(),
                    e.awsErrorDetails().errorCode(),
                    e.awsErrorDetails().errorMessage());
        }
    }

    private ExecuteStatementResponse run(
            String statement, List<AttributeValue> parameters, Boolean consistent, ReturnConsumedCapacity mode) {
        return c.executeStatement(ExecuteStatementRequest.builder()
                .statement(statement)
                .parameters(parameters)
                .consistentRead(consistent)
                .returnConsumedCapacity(mode)
                .build());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }

    private static AttributeValue bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return AttributeValue.fromB(SdkBytes.fromByteArray(out));
    }
}
