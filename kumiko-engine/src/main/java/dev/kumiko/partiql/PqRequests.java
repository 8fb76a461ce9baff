package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction as the client sent them. */
public final class PqRequests {
    private PqRequests() {}

    public record ExecuteStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            String nextToken, ReturnConsumedCapacity returnConsumedCapacity, Long limit,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {}

    /** One BatchStatementRequest. */
    public record BatchStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {}

    public record BatchExecuteStatement(List<BatchStatement> statements, ReturnConsumedCapacity returnConsumedCapacity) {}

    /** One ParameterizedStatement of a transaction. */
    public record TransactStatement(String statement, List<AttributeValue> parameters,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {}

    public record ExecuteTransaction(List<TransactStatement> transactStatements, String clientRequestToken,
            ReturnConsumedCapacity returnConsumedCapacity) {}
}
