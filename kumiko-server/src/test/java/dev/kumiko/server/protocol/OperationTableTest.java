package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The registration table: every operation has a rule, and only DynamoDB's own names are served. */
class OperationTableTest {
    @Test
    void anOperationWithoutAnAuthorizationRuleCannotBeBuilt() {
        assertThatThrownBy(() -> new Operation<Void, Void>(
                        Operation.Api.DYNAMODB,
                        "PutItem",
                        body -> null,
                        (e, r, c) -> null,
                        Operation.Encoder.empty(),
                        null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("PutItem: an operation needs an authorization rule");
    }

    @Test
    void theDynamoDbOperationsServedAreNamesOfTheApi() {
        assertThat(OperationTable.standard().names(Operation.Api.DYNAMODB))
                .isNotEmpty()
                .allSatisfy(name -> assertThat(Operations.DYNAMODB_OPERATIONS.contains(name)
                                || ReplicationOperations.NAMES.contains(name))
                        .as(name + " is DynamoDB's, or one of Kumiko's calls between regions")
                        .isTrue());
        assertThat(ReplicationOperations.NAMES)
                .allSatisfy(name -> assertThat(name).startsWith("Kumiko"));
        assertThat(OperationTable.standard().names(Operation.Api.STREAMS))
                .containsExactlyInAnyOrder("ListStreams", "DescribeStream", "GetShardIterator", "GetRecords");
    }

    @Test
    void everyListedNameBuildsItsOwnOperationOnceAtItsFirstLookup() {
        OperationTable table = OperationTable.standard();
        int built = 0;
        for (Operation.Api api : Operation.Api.values()) {
            for (String name : table.names(api)) {
                Operation<?, ?> op = table.find(api, name);
                assertThat(op).as(api + " " + name).isNotNull();
                assertThat(op.api()).isEqualTo(api);
                assertThat(op.name()).isEqualTo(name);
                assertThat(table.find(api, name)).isSameAs(op);
                built++;
            }
        }
        assertThat(built)
                .isEqualTo(54
                        + GlobalTableSettingsOperations.NAMES.size()
                        + ReplicationOperations.NAMES.size()
                        + ContributorInsightsRegistration.NAMES.size()
                        + ResourcePolicyOperations.NAMES.size()
                        + KinesisDestinationRegistration.NAMES.size());
        assertThat(table.find(Operation.Api.DYNAMODB, "DescribeGlobalTableSettings"))
                .isNotNull();
        assertThat(table.find(Operation.Api.DYNAMODB, "KumikoNoSuchOperation")).isNull();
        assertThat(table.find(Operation.Api.STREAMS, "PutItem")).isNull();
    }

    @Test
    void aNameListedTwiceInOneApiIsRefused() {
        List<String> names = List.of("PutItem");
        assertThatThrownBy(() -> new OperationTable(List.of(
                        new OperationTable.Concern(Operation.Api.DYNAMODB, names, DataPlaneOperations::operation),
                        new OperationTable.Concern(Operation.Api.DYNAMODB, names, DataPlaneOperations::operation))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("operation registered twice: DYNAMODB PutItem");
    }

    @Test
    void aRegistrationThatBuildsAnotherOperationFailsItsLookup() {
        OperationTable table = new OperationTable(List.of(
                new OperationTable.Concern(Operation.Api.STREAMS, List.of("PutItem"), DataPlaneOperations::operation)));
        assertThatThrownBy(() -> table.find(Operation.Api.STREAMS, "PutItem"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the registration of STREAMS PutItem built DYNAMODB PutItem");
    }
}
