package dev.kumiko.server.partiql;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
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
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/** ExecuteStatement through the SDK: every statement form, parameters, literals, paging, capacity, errors. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartiqlStatementTest {
    static final String T = "pq-orders";
    TestServer server;
    DynamoDbClient c;

    @BeforeAll
    void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        c.createTable(b -> b.tableName(T)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.N),
                        a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("byStatus")
                        .keySchema(
                                k -> k.attributeName("status").keyType(KeyType.HASH),
                                k -> k.attributeName("sk").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        for (int i = 1; i <= 10; i++) {
            int n = i;
            c.putItem(b -> b.tableName(T)
                    .item(Map.of(
                            "pk",
                            s("cust#1"),
                            "sk",
                            n(n),
                            "status",
                            s(n % 2 == 0 ? "open" : "done"),
                            "total",
                            n(n * 10L),
                            "info",
                            m(Map.of("city", s("Kyoto"), "tags", l(s("a"), s("b" + n)))))));
        }
    }

    @AfterAll
    void stop() {
        server.close();
    }

    ExecuteStatementResponse run(String statement, AttributeValue... parameters) {
        return c.executeStatement(
                b -> b.statement(statement).parameters(parameters.length == 0 ? null : List.of(parameters)));
    }

    @Test
    void selectByPartitionKeyIsAQueryInKeyOrder() {
        ExecuteStatementResponse r = run("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1'");
        assertThat(r.items()).hasSize(10);
        assertThat(r.items().get(0).get("sk").n()).isEqualTo("1");
        assertThat(r.items().get(9).get("sk").n()).isEqualTo("10");
        assertThat(r.nextToken()).isNull();
    }

    @Test
    void selectWithParametersSortKeyRangeAndFilter() {
        ExecuteStatementResponse r = run(
                "SELECT sk, total FROM \"pq-orders\" WHERE pk = ? AND sk BETWEEN ? AND 6 AND total >= ?",
                s("cust#1"),
                n(2),
                n(40));
        assertThat(r.items())
                .containsExactly(
                        Map.of("sk", n(4), "total", n(40)),
                        Map.of("sk", n(5), "total", n(50)),
                        Map.of("sk", n(6), "total", n(60)));
    }

    @Test
    void selectOperatorsAndFunctions() {
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk > 8"))
                .containsExactly("9", "10");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk <= 2"))
                .containsExactly("1", "2");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND total <> 10 AND sk < 3"))
                .containsExactly("2");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk IN [3, 7]"))
                .containsExactly("3", "7");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND (sk = 1 OR sk = 2)"))
                .containsExactly("1", "2");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND NOT status = 'open' AND sk < 4"))
                .containsExactly("1", "3");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND begins_with(status, 'op') AND sk < 5"))
                .containsExactly("2", "4");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND contains(info.tags, 'b3')"))
                .containsExactly("3");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND attribute_type(total, 'N') AND sk = 1"))
                .containsExactly("1");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND size(info.tags) = 2 AND sk = 2"))
                .containsExactly("2");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND nothing IS MISSING AND sk = 3"))
                .containsExactly("3");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND total IS NOT MISSING AND sk = 3"))
                .containsExactly("3");
        assertThat(
                        sks(
                                "SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND info.city = 'Kyoto' AND info.tags[1] = 'b5'"))
                .containsExactly("5");
    }

    @Test
    void selectOfANestedNameAnswersTheValueUnderItsLastName() {
        Map<String, AttributeValue> city = Map.of("city", s("Kyoto"));
        // A point read (GetItem), a Query and a Scan: each answers the value, not the enclosing map.
        assertThat(run("SELECT info.city FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")
                        .items())
                .containsExactly(city);
        assertThat(run("SELECT info.city FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk BETWEEN 3 AND 3")
                        .items())
                .containsExactly(city);
        assertThat(run("SELECT info.city, sk FROM \"pq-orders\" WHERE total = 30")
                        .items())
                .containsExactly(Map.of("city", s("Kyoto"), "sk", n(3)));
        // A map value comes back whole under its name; a missing path contributes nothing.
        assertThat(run("SELECT info.city, info.nothing FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")
                        .items())
                .containsExactly(city);
        // A path that ends in a list index keeps its enclosing document (see docs/partiql.md).
        assertThat(run("SELECT info.tags[1], total FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")
                        .items())
                .containsExactly(Map.of("info", m(Map.of("tags", l(s("b3")))), "total", n(30)));
        assertThat(run("SELECT info.city, info.tags[1] FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")
                        .items())
                .containsExactly(Map.of("city", s("Kyoto"), "info", m(Map.of("tags", l(s("b3"))))));
        // The projection's own checks still run on the paths as written.
        assertValidation(
                () -> run("SELECT info, info.city FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3"),
                "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of "
                        + "these paths; path one: [info], path two: [info, city]");
        // BatchExecuteStatement and ExecuteTransaction answer the same shape.
        assertThat(c.batchExecuteStatement(b -> b.statements(
                                s -> s.statement("SELECT info.city FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")))
                        .responses()
                        .get(0)
                        .item())
                .isEqualTo(city);
        assertThat(c.executeTransaction(b -> b.transactStatements(
                                s -> s.statement("SELECT info.city FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk = 3")))
                        .responses()
                        .get(0)
                        .item())
                .isEqualTo(city);
    }

    @Test
    void selectWithoutThePartitionKeyIsAScan() {
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE total > 85")).containsExactly("9", "10");
        assertThat(run("SELECT * FROM \"pq-orders\" WHERE begins_with(pk, 'cust')")
                        .items())
                .hasSize(10);
    }

    @Test
    void selectOnAnIndexQueriesTheIndex() {
        assertThat(sks("SELECT * FROM \"pq-orders\".\"byStatus\" WHERE status = 'open' AND sk >= 6"))
                .containsExactly("6", "8", "10");
        assertThat(sks("SELECT * FROM \"pq-orders\".\"byStatus\" WHERE status = 'done' ORDER BY sk DESC"))
                .containsExactly("9", "7", "5", "3", "1");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\".\"nope\" WHERE status = 'open'"),
                "The table does not have the specified index: nope");
    }

    @Test
    void orderByTheSortKey() {
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk < 4 ORDER BY sk DESC"))
                .containsExactly("3", "2", "1");
        assertThat(sks("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1' AND sk < 4 ORDER BY sk ASC"))
                .containsExactly("1", "2", "3");
    }

    @Test
    void pagingWithLimitAndNextToken() {
        List<String> all = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String from = token;
            ExecuteStatementResponse r =
                    c.executeStatement(b -> b.statement("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1'")
                            .limit(4)
                            .nextToken(from));
            r.items().forEach(i -> all.add(i.get("sk").n()));
            token = r.nextToken();
            pages++;
        } while (token != null && pages < 10);
        assertThat(all).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void consumedCapacityEqualsTheEquivalentOperation() {
        ExecuteStatementResponse select =
                c.executeStatement(b -> b.statement("SELECT * FROM \"pq-orders\" WHERE pk = 'cust#1'")
                        .consistentRead(true)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        QueryResponse query = c.query(b -> b.tableName(T)
                .keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("cust#1")))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(select.consumedCapacity()).isEqualTo(query.consumedCapacity());
        ExecuteStatementResponse scanLike =
                c.executeStatement(b -> b.statement("SELECT * FROM \"pq-orders\" WHERE total > 0")
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        ScanResponse scan = c.scan(b -> b.tableName(T).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(scanLike.consumedCapacity()).isEqualTo(scan.consumedCapacity());

        ExecuteStatementResponse insert = c.executeStatement(
                b -> b.statement("INSERT INTO \"pq-orders\" VALUE {'pk': 'cap', 'sk': 1, 'status': 'open'}")
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        var put = c.putItem(b -> b.tableName(T)
                .item(Map.of("pk", s("cap"), "sk", n(2), "status", s("open")))
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
        assertThat(insert.consumedCapacity()).isEqualTo(put.consumedCapacity());
        ExecuteStatementResponse update =
                c.executeStatement(b -> b.statement("UPDATE \"pq-orders\" SET note = 'x' WHERE pk = 'cap' AND sk = 1")
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        var updateItem = c.updateItem(b -> b.tableName(T)
                .key(Map.of("pk", s("cap"), "sk", n(2)))
                .updateExpression("SET note = :x")
                .expressionAttributeValues(Map.of(":x", s("x")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(update.consumedCapacity()).isEqualTo(updateItem.consumedCapacity());
        ExecuteStatementResponse delete =
                c.executeStatement(b -> b.statement("DELETE FROM \"pq-orders\" WHERE pk = 'cap' AND sk = 1")
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        var deleteItem = c.deleteItem(b -> b.tableName(T)
                .key(Map.of("pk", s("cap"), "sk", n(2)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(delete.consumedCapacity()).isEqualTo(deleteItem.consumedCapacity());
        assertThat(delete.consumedCapacity().capacityUnits()).isEqualTo(2.0); // table + GSI entry
    }

    @Test
    void insertWritesEveryLiteralKind() {
        ExecuteStatementResponse r = run(
                "INSERT INTO \"pq-orders\" VALUE {'pk': 'lit', 'sk': -1.5e1, 's': 'it''s', "
                        + "'b': TRUE, 'z': NULL, 'l': [1, 'two', [FALSE]], 'm': {'k': {'deep': 3}}, 'ss': <<'x', 'y'>>, "
                        + "'ns': <<1, 2>>, 'bs': ?}",
                AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("q"))));
        assertThat(r.items()).isEmpty();
        Map<String, AttributeValue> got = c.getItem(b -> b.tableName(T).key(Map.of("pk", s("lit"), "sk", n(-15))))
                .item();
        assertThat(got.get("s").s()).isEqualTo("it's");
        assertThat(got.get("b").bool()).isTrue();
        assertThat(got.get("z").nul()).isTrue();
        assertThat(got.get("l")).isEqualTo(l(n(1), s("two"), l(AttributeValue.fromBool(false))));
        assertThat(got.get("m")).isEqualTo(m(Map.of("k", m(Map.of("deep", n(3))))));
        assertThat(got.get("ss").ss()).containsExactlyInAnyOrder("x", "y");
        assertThat(got.get("ns").ns()).containsExactlyInAnyOrder("1", "2");
        assertThat(got.get("bs").bs()).hasSize(1);
    }

    @Test
    void insertOfAnExistingItemIsADuplicate() {
        run("INSERT INTO \"pq-orders\" VALUE {'pk': 'dup', 'sk': 1, 'v': 1}");
        assertError(
                () -> run("INSERT INTO \"pq-orders\" VALUE {'pk': 'dup', 'sk': 1, 'v': 2}"),
                "DuplicateItemException",
                "Duplicate primary key exists in table");
        assertThat(c.getItem(b -> b.tableName(T).key(Map.of("pk", s("dup"), "sk", n(1))))
                        .item()
                        .get("v"))
                .isEqualTo(n(1));
    }

    @Test
    void updateSetRemoveAndFunctions() {
        run(
                "INSERT INTO \"pq-orders\" VALUE {'pk': 'upd', 'sk': 1, 'count': 1, 'list': [1], 'tags': <<'a'>>, 'gone': 1, "
                        + "'doc': {'x': 1}}");
        ExecuteStatementResponse r = run(
                "UPDATE \"pq-orders\" SET count = count + 4 SET list = list_append(list, [2]), "
                        + "tags = set_add(tags, <<'b'>>) SET doc.x = ?, fresh = if_not_exists(fresh, 'new') REMOVE gone "
                        + "WHERE pk = 'upd' AND sk = 1 RETURNING ALL NEW *",
                n(9));
        Map<String, AttributeValue> item = r.items().get(0);
        assertThat(item.get("count")).isEqualTo(n(5));
        assertThat(item.get("list")).isEqualTo(l(n(1), n(2)));
        assertThat(item.get("tags").ss()).containsExactlyInAnyOrder("a", "b");
        assertThat(item.get("doc")).isEqualTo(m(Map.of("x", n(9))));
        assertThat(item.get("fresh")).isEqualTo(s("new"));
        assertThat(item).doesNotContainKey("gone");
        ExecuteStatementResponse old =
                run("UPDATE \"pq-orders\" SET tags = set_delete(tags, <<'a'>>), count = count - 1 "
                        + "WHERE pk = 'upd' AND sk = 1 RETURNING MODIFIED OLD *");
        assertThat(old.items())
                .containsExactly(Map.of("tags", AttributeValue.fromSs(List.of("a", "b")), "count", n(5)));
        ExecuteStatementResponse plain = run("UPDATE \"pq-orders\" SET count = 0 WHERE pk = 'upd' AND sk = 1");
        assertThat(plain.items()).isEmpty();
    }

    @Test
    void updateIsNotAnUpsertAndExtraWhereTermsAreConditions() {
        assertError(
                () -> run("UPDATE \"pq-orders\" SET a = 1 WHERE pk = 'never' AND sk = 1"),
                "ConditionalCheckFailedException",
                "The conditional request failed");
        assertThat(c.getItem(b -> b.tableName(T).key(Map.of("pk", s("never"), "sk", n(1))))
                        .hasItem())
                .isFalse();
        run("INSERT INTO \"pq-orders\" VALUE {'pk': 'cond', 'sk': 1, 'v': 1}");
        assertThatThrownBy(() -> c.executeStatement(
                        b -> b.statement("UPDATE \"pq-orders\" SET v = 2 WHERE pk = 'cond' AND sk = 1 AND v = 5")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.item()).isEqualTo(Map.of("pk", s("cond"), "sk", n(1), "v", n(1))));
        run("UPDATE \"pq-orders\" SET v = 2 WHERE pk = 'cond' AND sk = 1 AND v = 1");
        assertError(
                () -> run("DELETE FROM \"pq-orders\" WHERE pk = 'cond' AND sk = 1 AND v = 1"),
                "ConditionalCheckFailedException",
                "The conditional request failed");
        ExecuteStatementResponse deleted =
                run("DELETE FROM \"pq-orders\" WHERE pk = 'cond' AND sk = 1 AND v = 2 RETURNING ALL OLD *");
        assertThat(deleted.items()).containsExactly(Map.of("pk", s("cond"), "sk", n(1), "v", n(2)));
        assertThat(run("DELETE FROM \"pq-orders\" WHERE pk = 'cond' AND sk = 1").items())
                .isEmpty();
    }

    @Test
    void writesNeedTheFullKey() {
        assertValidation(
                () -> run("UPDATE \"pq-orders\" SET a = 1 WHERE pk = 'x'"),
                "Where clause does not contain a mandatory equality on all key attributes");
        assertValidation(
                () -> run("DELETE FROM \"pq-orders\" WHERE pk = 'x' AND sk > 1"),
                "Where clause does not contain a mandatory equality on all key attributes");
    }

    @Test
    void syntaxErrorsAndParameterCounts() {
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x' foo"),
                "Statement wasn't well formed, can't be processed: Unexpected token after expression");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x' # note"),
                "Statement wasn't well formed, can't be processed: ");
        assertValidation(() -> run("SELECT * FROM \"pq-orders\" t WHERE pk = 'x'"), "Aliasing is not supported");
        assertValidation(
                () -> run("DELETE FROM \"pq-orders\" WHERE pk = 'x' ORDER BY pk"),
                "Statement wasn't well formed, can't be processed: Unexpected token after expression");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = ?"),
                "Number of parameters in request and statement don't match.");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x'", s("extra")),
                "Number of parameters in request and statement don't match.");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 1e126"),
                "Number overflow. Attempting to store a number with magnitude larger than supported range under root");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x' AND EXISTS(a)"),
                "Unrecognized function: exists at 1:46:6");
        assertValidation(
                () -> run("UPDATE \"pq-orders\" SET t = set_add(ss, <<'x'>>) WHERE pk = 'x' AND sk = 1"),
                "The first argument to SET_ADD must equal the assignment value at 1:28:7");
        assertValidation(
                () -> run("UPDATE \"pq-orders\" SET ss = set_add(ss, <<>>) WHERE pk = 'x' AND sk = 1"),
                "Empty bags are not supported");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x' AND attribute_exists('a')"),
                "Operator or function requires a document path; operator or function: attribute_exists");
        assertError(
                () -> run("SELECT * FROM \"missing-table\" WHERE pk = 'x'"),
                "ResourceNotFoundException",
                "Requested resource not found");
        assertValidation(
                () -> c.executeStatement(b -> b.statement("")),
                "1 validation error detected: Value '' at 'statement' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
        assertValidation(
                () -> c.executeStatement(
                        b -> b.statement("SELECT * FROM \"pq-orders\"").parameters(List.of())),
                "1 validation error detected: Value '[]' at 'parameters' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
    }

    @Test
    void oddInputIsAValidationErrorNeverAServerError() {
        String deep = "SELECT * FROM \"pq-orders\" WHERE " + "(".repeat(500) + "pk = 'x'" + ")".repeat(500);
        assertValidation(
                () -> run(deep),
                "Statement wasn't well formed, can't be processed: Expression nesting exceeds the supported depth");
        String deepValue =
                "INSERT INTO \"pq-orders\" VALUE {'pk': 'x', 'sk': 1, 'l': " + "[".repeat(40) + "]".repeat(40) + "}";
        assertValidation(
                () -> run(deepValue),
                "Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
        assertValidation(
                () -> run("EXISTS(SELECT * FROM \"pq-orders\" WHERE pk = 'x' AND sk = 1 AND a = 1)"),
                "EXISTS is supported only in ExecuteTransaction");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE total > 1 ORDER BY sk"),
                "Must have WHERE clause in the statement when using ORDER BY clause.");
        assertValidation(
                () -> run("INSERT INTO \"pq-orders\" VALUE {'pk': 'x', 'sk': 1, 's': <<'a', 'a'>>}"),
                "One or more parameter values were invalid: Input collection [a, a] contains duplicates.");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x' AND a[99999999999] = 1"),
                "Statement wasn't well formed, can't be processed: Unexpected token: 99999999999 at 1:48:11");
        assertValidation(
                () -> run("SELECT * FROM \"pq-orders\" WHERE pk = 'x"),
                "Statement wasn't well formed, can't be processed: ");
        assertValidation(
                () -> run("SELEC * FROM \"pq-orders\""),
                "Statement wasn't well formed, can't be processed: Unexpected token: SELEC at 1:1:5");
        assertValidation(
                () -> c.executeStatement(
                        b -> b.statement("SELECT * FROM \"pq-orders\"").nextToken("@@not-ours")),
                "Invalid NextToken");
    }

    @Test
    void commentsAreWhitespace() {
        assertThat(sks("-- lead\nSELECT * FROM \"pq-orders\" /* mid */ WHERE pk = 'cust#1' AND sk = 2 -- tail"))
                .containsExactly("2");
    }

    List<String> sks(String statement) {
        List<String> out = new ArrayList<>();
        run(statement).items().forEach(i -> out.add(i.get("sk").n()));
        return out;
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    static AttributeValue m(Map<String, AttributeValue> v) {
        return AttributeValue.fromM(v);
    }

    static AttributeValue l(AttributeValue... v) {
        return AttributeValue.fromL(List.of(v));
    }
}
