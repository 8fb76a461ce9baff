package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import java.util.List;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction as the client sent them. */
public final class PqRequests {
    private PqRequests() {}

    public record ExecuteStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            String nextToken, String returnConsumedCapacity, Long limit,
            String returnValuesOnConditionCheckFailure) {}

    /** One BatchStatementRequest. */
    public record BatchStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            String returnValuesOnConditionCheckFailure) {}

    public record BatchExecuteStatement(List<BatchStatement> statements, String returnConsumedCapacity) {}

    /** One ParameterizedStatement of a transaction. */
    public record TransactStatement(String statement, List<AttributeValue> parameters,
            String returnValuesOnConditionCheckFailure) {}

    public record ExecuteTransaction(List<TransactStatement> transactStatements, String clientRequestToken,
            String returnConsumedCapacity) {}
}
