package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import dev.kumiko.partiql.PqLimits;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The API model's member constraints of ExecuteStatement, BatchExecuteStatement and
 * ExecuteTransaction, in DynamoDB's message format, checked by the decoder on the members as the
 * wire sent them (the statements' ReturnValuesOnConditionCheckFailure as strings, one per statement).
 */
final class PartiqlConstraints {
    private PartiqlConstraints() {}

    static void executeStatement(
            @Nullable String statement,
            @Nullable List<?> parameters,
            @Nullable String nextToken,
            @Nullable String returnConsumedCapacity,
            @Nullable Long limit,
            @Nullable String returnValuesOnConditionCheckFailure) {
        Constraints c = new Constraints();
        statement(c, "statement", statement);
        parameters(c, "parameters", parameters);
        c.length("nextToken", nextToken, 1, PqLimits.NEXT_TOKEN_LENGTH_MAX);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        c.range("limit", limit, 1, Integer.MAX_VALUE);
        WireEnums.check(
                c,
                "returnValuesOnConditionCheckFailure",
                returnValuesOnConditionCheckFailure,
                ReturnValuesOnConditionCheckFailure.class);
        c.throwIfAny();
    }

    /** One statement of a batch or transaction: its text, parameters and ReturnValuesOnConditionCheckFailure. */
    record Statement(
            @Nullable String statement,
            @Nullable List<AttributeValue> parameters,
            @Nullable String returnValuesOnConditionCheckFailure) {}

    static void batch(@Nullable List<Statement> list, @Nullable String returnConsumedCapacity) {
        Constraints c = new Constraints();
        if (c.notNull("statements", list) && list != null) {
            c.size("statements", list, list.isEmpty() ? "[]" : "[...]", 1, PqLimits.BATCH_STATEMENTS_MAX);
            for (int i = 0; i < list.size() && i < PqLimits.BATCH_STATEMENTS_MAX; i++) {
                String base = "statements." + (i + 1) + ".member.";
                statementMembers(c, base, list.get(i));
            }
        }
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        c.throwIfAny();
    }

    static void transaction(
            @Nullable List<Statement> list,
            @Nullable String clientRequestToken,
            @Nullable String returnConsumedCapacity) {
        Constraints c = new Constraints();
        if (c.notNull("transactStatements", list) && list != null) {
            c.size("transactStatements", list, list.isEmpty() ? "[]" : "[...]", 1, PqLimits.TRANSACTION_STATEMENTS_MAX);
            for (int i = 0; i < list.size() && i < PqLimits.TRANSACTION_STATEMENTS_MAX; i++) {
                String base = "transactStatements." + (i + 1) + ".member.";
                statementMembers(c, base, list.get(i));
            }
        }
        c.length("clientRequestToken", clientRequestToken, 1, PqLimits.CLIENT_TOKEN_LENGTH_MAX);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        c.throwIfAny();
    }

    private static void statementMembers(Constraints c, String base, Statement s) {
        statement(c, base + "statement", s.statement());
        parameters(c, base + "parameters", s.parameters());
        WireEnums.check(
                c,
                base + "returnValuesOnConditionCheckFailure",
                s.returnValuesOnConditionCheckFailure(),
                ReturnValuesOnConditionCheckFailure.class);
    }

    private static void statement(Constraints c, String path, @Nullable String statement) {
        if (c.notNull(path, statement)) {
            c.length(path, statement, 1, PqLimits.STATEMENT_LENGTH_MAX);
        }
    }

    private static void parameters(Constraints c, String path, @Nullable List<?> parameters) {
        if (parameters != null) {
            c.size(path, parameters, parameters.isEmpty() ? "[]" : "[...]", PqLimits.PARAMETERS_MIN, Integer.MAX_VALUE);
        }
    }
}
