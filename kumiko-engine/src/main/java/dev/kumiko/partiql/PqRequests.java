package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** ExecuteStatement, BatchExecuteStatement and ExecuteTransaction as the client sent them. */
public final class PqRequests {
    private PqRequests() {}

    /** {@code parse}: the statement's parse, shared by the authorization rule and the engine. */
    public record ExecuteStatement(
            String statement,
            @Nullable List<AttributeValue> parameters,
            @Nullable Boolean consistentRead,
            @Nullable String nextToken,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable Long limit,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            PqParse parse) {
        public ExecuteStatement(
                String statement,
                @Nullable List<AttributeValue> parameters,
                @Nullable Boolean consistentRead,
                @Nullable String nextToken,
                @Nullable ReturnConsumedCapacity returnConsumedCapacity,
                @Nullable Long limit,
                @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(
                    statement,
                    parameters,
                    consistentRead,
                    nextToken,
                    returnConsumedCapacity,
                    limit,
                    returnValuesOnConditionCheckFailure,
                    new PqParse(statement, parameters));
        }
    }

    /** One BatchStatementRequest. */
    public record BatchStatement(
            String statement,
            @Nullable List<AttributeValue> parameters,
            @Nullable Boolean consistentRead,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            PqParse parse) {
        public BatchStatement(
                String statement,
                @Nullable List<AttributeValue> parameters,
                @Nullable Boolean consistentRead,
                @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(
                    statement,
                    parameters,
                    consistentRead,
                    returnValuesOnConditionCheckFailure,
                    new PqParse(statement, parameters));
        }
    }

    public record BatchExecuteStatement(
            List<BatchStatement> statements, @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}

    /** One ParameterizedStatement of a transaction. */
    public record TransactStatement(
            String statement,
            @Nullable List<AttributeValue> parameters,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            PqParse parse) {
        public TransactStatement(
                String statement,
                @Nullable List<AttributeValue> parameters,
                @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
            this(statement, parameters, returnValuesOnConditionCheckFailure, new PqParse(statement, parameters));
        }
    }

    public record ExecuteTransaction(
            List<TransactStatement> transactStatements,
            @Nullable String clientRequestToken,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}
}
