package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction as the client sent them. */
public final class PqRequests {
    private PqRequests() {}

    /** {@code parse}: the statement's parse, shared by the authorization rule and the engine. */
    public record ExecuteStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            String nextToken, ReturnConsumedCapacity returnConsumedCapacity, Long limit,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, PqParse parse) {
        public ExecuteStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
                String nextToken, ReturnConsumedCapacity returnConsumedCapacity, Long limit,
                ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(statement, parameters, consistentRead, nextToken, returnConsumedCapacity, limit,
                    returnValuesOnConditionCheckFailure, new PqParse(statement, parameters));
        }
    }

    /** One BatchStatementRequest. */
    public record BatchStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, PqParse parse) {
        public BatchStatement(String statement, List<AttributeValue> parameters, Boolean consistentRead,
                ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(statement, parameters, consistentRead, returnValuesOnConditionCheckFailure,
                    new PqParse(statement, parameters));
        }
    }

    public record BatchExecuteStatement(List<BatchStatement> statements, ReturnConsumedCapacity returnConsumedCapacity) {}

    /** One ParameterizedStatement of a transaction. */
    public record TransactStatement(String statement, List<AttributeValue> parameters,
            ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, PqParse parse) {
        public TransactStatement(String statement, List<AttributeValue> parameters,
                ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(statement, parameters, returnValuesOnConditionCheckFailure, new PqParse(statement, parameters));
        }
    }

    public record ExecuteTransaction(List<TransactStatement> transactStatements, String clientRequestToken,
            ReturnConsumedCapacity returnConsumedCapacity) {}
}
