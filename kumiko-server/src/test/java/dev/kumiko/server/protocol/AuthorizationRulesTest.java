package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.policy.AuthFacts;
import dev.kumiko.server.policy.AuthorizationCheck;
import dev.kumiko.server.policy.KeySchemas;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which permissions a request needs, and the condition keys each carries, by each operation's rule. */
class AuthorizationRulesTest {
    private static final String ARN = "arn:aws:dynamodb:ap-northeast-1:123456789012:";
    /** MyApp and Other are keyed on PK; MyApp's GSI1 on GSI1PK. */
    private static final KeySchemas SCHEMAS =
            (table, index) -> index == null ? "PK" : table.equals("MyApp") && index.equals("GSI1") ? "GSI1PK" : null;

    private static final AuthFacts FACTS = AuthFacts.of("ap-northeast-1", "123456789012", SCHEMAS);

    private List<AuthorizationCheck> of(String operation, String json) {
        return of(operation, false, json);
    }

    private List<AuthorizationCheck> of(String operation, boolean streams, String json) {
        byte[] b = json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
        Operation<?, ?> op =
                OperationTable.standard().find(streams ? Operation.Api.STREAMS : Operation.Api.DYNAMODB, operation);
        return checks(op, JsonTree.parseObject(b, 0, b.length), FACTS);
    }

    private static <R> List<AuthorizationCheck> checks(Operation<R, ?> op, Map<String, Object> body, AuthFacts f) {
        R request;
        try {
            request = op.decoder().decode(body);
        } catch (MemberViolations v) {
            request = v.request(); // authorized first, as Operations does; the violations are answered after
        }
        return op.authorization().checks(request, f);
    }

    @Test
    void getItemNamesItsPartitionKeyAndAttributes() {
        AuthorizationCheck c = of(
                        "GetItem",
                        "{'TableName':'MyApp','Key':{'PK':{'S':'USER#alice'},'SK':{'S':'P'}},"
                                + "'ProjectionExpression':'#n, addr.city, tags[0]','ExpressionAttributeNames':{'#n':'name'}}")
                .get(0);
        assertThat(c.action()).isEqualTo("GetItem");
        assertThat(c.resource()).isEqualTo(ARN + "table/MyApp");
        assertThat(c.keys().get("dynamodb:leadingkeys")).containsExactly("USER#alice");
        assertThat(c.keys().get("dynamodb:attributes")).containsExactlyInAnyOrder("PK", "SK", "name", "addr", "tags");
        assertThat(c.keys()).doesNotContainKey("dynamodb:returnvalues");
    }

    @Test
    void writesCarryReturnValuesAndEveryNameTheyTouch() {
        AuthorizationCheck put = of(
                        "PutItem",
                        "{'TableName':'MyApp','Item':{'PK':{'N':'7'},'SK':{'S':'x'},"
                                + "'a':{'S':'1'}},'ConditionExpression':'attribute_not_exists(c)','ReturnValues':'ALL_OLD'}")
                .get(0);
        assertThat(put.keys().get("dynamodb:leadingkeys")).containsExactly("7");
        assertThat(put.keys().get("dynamodb:attributes")).containsExactlyInAnyOrder("PK", "SK", "a", "c");
        assertThat(put.keys().get("dynamodb:returnvalues")).containsExactly("ALL_OLD");
        AuthorizationCheck update = of(
                        "UpdateItem",
                        "{'TableName':'MyApp','Key':{'PK':{'S':'USER#bob'}},"
                                + "'UpdateExpression':'SET #a = b + :one REMOVE c.d','ExpressionAttributeNames':{'#a':'score'}}")
                .get(0);
        assertThat(update.keys().get("dynamodb:attributes")).containsExactlyInAnyOrder("PK", "score", "b", "c");
        assertThat(update.keys().get("dynamodb:returnvalues")).containsExactly("NONE");
    }

    @Test
    void queryReadsTheEqualityOnTheQueriedPartitionKey() {
        AuthorizationCheck onTable = of(
                        "Query",
                        "{'TableName':'MyApp','KeyConditionExpression':"
                                + "'begins_with(SK, :p) AND :pk = #k','ExpressionAttributeNames':{'#k':'PK'},"
                                + "'ExpressionAttributeValues':{':pk':{'S':'USER#alice'},':p':{'S':'O#'}}}")
                .get(0);
        assertThat(onTable.resource()).isEqualTo(ARN + "table/MyApp");
        assertThat(onTable.keys().get("dynamodb:leadingkeys")).containsExactly("USER#alice");
        assertThat(onTable.keys().get("dynamodb:select")).containsExactly("ALL_ATTRIBUTES");
        AuthorizationCheck onIndex = of(
                        "Query",
                        "{'TableName':'MyApp','IndexName':'GSI1','KeyConditionExpression':"
                                + "'GSI1PK = :v','ExpressionAttributeValues':{':v':{'S':'ORG#1'}}}")
                .get(0);
        assertThat(onIndex.resource()).isEqualTo(ARN + "table/MyApp/index/GSI1");
        assertThat(onIndex.keys().get("dynamodb:leadingkeys")).containsExactly("ORG#1");
        assertThat(onIndex.keys().get("dynamodb:select")).containsExactly("ALL_PROJECTED_ATTRIBUTES");
        AuthorizationCheck legacy = of(
                        "Query",
                        "{'TableName':'MyApp','KeyConditions':{'PK':{'ComparisonOperator':"
                                + "'EQ','AttributeValueList':[{'S':'USER#carol'}]}},'AttributesToGet':['x']}")
                .get(0);
        assertThat(legacy.keys().get("dynamodb:leadingkeys")).containsExactly("USER#carol");
        assertThat(legacy.keys().get("dynamodb:select")).containsExactly("SPECIFIC_ATTRIBUTES");
    }

    @Test
    void scanHasNoLeadingKeys() {
        AuthorizationCheck c =
                of("Scan", "{'TableName':'MyApp','Select':'COUNT'}").get(0);
        assertThat(c.keys()).doesNotContainKey("dynamodb:leadingkeys");
        assertThat(c.keys().get("dynamodb:select")).containsExactly("COUNT");
    }

    @Test
    void batchesNeedTheBatchActionOnEveryTable() {
        List<AuthorizationCheck> write = of(
                "BatchWriteItem",
                "{'RequestItems':{'MyApp':["
                        + "{'PutRequest':{'Item':{'PK':{'S':'USER#alice'},'v':{'S':'1'}}}},"
                        + "{'DeleteRequest':{'Key':{'PK':{'S':'USER#bob'}}}}],"
                        + "'Other':[{'DeleteRequest':{'Key':{'PK':{'S':'X'}}}}]}}");
        assertThat(write).extracting(AuthorizationCheck::action).containsOnly("BatchWriteItem");
        assertThat(write)
                .extracting(AuthorizationCheck::resource)
                .containsExactly(ARN + "table/MyApp", ARN + "table/Other");
        assertThat(write.get(0).keys().get("dynamodb:leadingkeys")).containsExactly("USER#alice", "USER#bob");
        assertThat(write.get(0).keys().get("dynamodb:attributes")).containsExactly("PK", "v");
        List<AuthorizationCheck> get = of(
                "BatchGetItem",
                "{'RequestItems':{'MyApp':{'Keys':[{'PK':{'S':'A'}},"
                        + "{'PK':{'S':'B'}}],'ProjectionExpression':'z'}}}");
        assertThat(get).singleElement().satisfies(c -> {
            assertThat(c.action()).isEqualTo("BatchGetItem");
            assertThat(c.keys().get("dynamodb:leadingkeys")).containsExactly("A", "B");
            assertThat(c.keys().get("dynamodb:attributes")).containsExactlyInAnyOrder("z", "PK");
        });
    }

    @Test
    void transactionsNeedTheItemActionPerEntry() {
        List<AuthorizationCheck> write = of(
                "TransactWriteItems",
                "{'TransactItems':["
                        + "{'Put':{'TableName':'MyApp','Item':{'PK':{'S':'A'}}}},"
                        + "{'Update':{'TableName':'MyApp','Key':{'PK':{'S':'B'}},'UpdateExpression':'SET x = :x'}},"
                        + "{'Delete':{'TableName':'Other','Key':{'PK':{'S':'C'}}}},"
                        + "{'ConditionCheck':{'TableName':'MyApp','Key':{'PK':{'S':'D'}},'ConditionExpression':'y = :y'}}]}");
        assertThat(write)
                .extracting(AuthorizationCheck::action)
                .containsExactly("PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem");
        assertThat(write)
                .extracting(c -> c.keys().get("dynamodb:leadingkeys"))
                .containsExactly(List.of("A"), List.of("B"), List.of("C"), List.of("D"));
        assertThat(write.get(2).resource()).isEqualTo(ARN + "table/Other");
        assertThat(write)
                .allSatisfy(c ->
                        assertThat(c.keys().get("dynamodb:enclosingoperation")).containsExactly("TransactWriteItems"));
        List<AuthorizationCheck> get =
                of("TransactGetItems", "{'TransactItems':[{'Get':{'TableName':'MyApp'," + "'Key':{'PK':{'S':'A'}}}}]}");
        assertThat(get).singleElement().satisfies(c -> {
            assertThat(c.action()).isEqualTo("GetItem");
            assertThat(c.keys().get("dynamodb:enclosingoperation")).containsExactly("TransactGetItems");
        });
    }

    @Test
    void accountLevelStreamAndArnAddressedResources() {
        assertThat(of("ListTables", "{}").get(0).resource()).isEqualTo("*");
        assertThat(of("DescribeLimits", "{}").get(0).resource()).isEqualTo("*");
        assertThat(of("DescribeTable", "{'TableName':'MyApp'}").get(0).resource())
                .isEqualTo(ARN + "table/MyApp");
        assertThat(of(
                                "GetItem",
                                "{'TableName':'arn:aws:dynamodb:us-east-1:000000000000:table/MyApp',"
                                        + "'Key':{'PK':{'S':'A'}}}")
                        .get(0))
                .satisfies(c -> {
                    assertThat(c.resource()).isEqualTo(ARN + "table/MyApp");
                    assertThat(c.keys().get("dynamodb:leadingkeys")).containsExactly("A");
                });
        assertThat(of("TagResource", "{'ResourceArn':'arn:aws:dynamodb:us-east-1:000000000000:table/T'}")
                        .get(0)
                        .resource())
                .isEqualTo(ARN + "table/T");
        String stream = "arn:aws:dynamodb:us-east-1:000000000000:table/MyApp/stream/2026-01-01T00:00:00.000";
        assertThat(of("DescribeStream", true, "{'StreamArn':'" + stream + "'}")
                        .get(0)
                        .resource())
                .isEqualTo(ARN + "table/MyApp/stream/2026-01-01T00:00:00.000");
        assertThat(of("GetRecords", true, "{'ShardIterator':'" + stream + "|1|AAAA'}")
                        .get(0)
                        .resource())
                .isEqualTo(ARN + "table/MyApp/stream/2026-01-01T00:00:00.000");
        assertThat(of("ListStreams", true, "{}").get(0).resource()).isEqualTo("*");
    }

    @Test
    void missingOrMistypedMembersGiveNoCheckSoTheEngineAnswers() {
        assertThat(of("GetItem", "{'Key':{'PK':{'S':'A'}}}")).isEmpty();
        assertThat(of("PutItem", "{'TableName':'MyApp','Item':{'PK':{'SS':['A']}}}")
                        .get(0)
                        .keys()
                        .get("dynamodb:leadingkeys"))
                .isEmpty();
        assertThat(of("Query", "{'TableName':'MyApp','KeyConditionExpression':'PK = '}")
                        .get(0)
                        .keys()
                        .get("dynamodb:leadingkeys"))
                .isEmpty();
    }

    @Test
    void unknownTablesHaveNoLeadingKeys() {
        AuthFacts none = AuthFacts.of("r", "1", (t, i) -> null);
        byte[] b = "{\"TableName\":\"T\",\"Key\":{\"PK\":{\"S\":\"A\"}}}".getBytes(StandardCharsets.UTF_8);
        Operation<?, ?> getItem = OperationTable.standard().find(Operation.Api.DYNAMODB, "GetItem");
        assertThat(checks(getItem, JsonTree.parseObject(b, 0, b.length), none)
                        .get(0)
                        .keys())
                .containsEntry("dynamodb:leadingkeys", List.of());
    }
}
