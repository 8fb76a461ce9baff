package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The registration table: every operation has a rule, and only DynamoDB's own names are served. */
class OperationTableTest {
    @Test
    void anOperationWithoutAnAuthorizationRuleCannotBeBuilt() {
        assertThatThrownBy(() -> new Operation<Void, Void>(Operation.Api.DYNAMODB, "PutItem", body -> null,
                (e, r, c) -> null, Operation.Encoder.empty(), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("PutItem: an operation needs an authorization rule");
    }

    @Test
    void theDynamoDbOperationsServedAreNamesOfTheApi() {
        assertThat(OperationTable.standard().names(Operation.Api.DYNAMODB)).isNotEmpty()
                .allSatisfy(name -> assertThat(Operations.DYNAMODB_OPERATIONS).contains(name));
        assertThat(OperationTable.standard().names(Operation.Api.STREAMS))
                .containsExactlyInAnyOrder("ListStreams", "DescribeStream", "GetShardIterator", "GetRecords");
    }
}
