package dev.kumiko.partiql;

import dev.kumiko.engine.Constraints;
import dev.kumiko.engine.Enums;
import java.util.List;

/** The API model's member constraints of the three operations, in DynamoDB's message format. */
final class PqConstraints {
    private PqConstraints() {}

    static void executeStatement(PqRequests.ExecuteStatement r) {
        Constraints c = new Constraints();
        statement(c, "statement", r.statement());
        parameters(c, "parameters", r.parameters());
        c.length("nextToken", r.nextToken(), 1, PqLimits.NEXT_TOKEN_LENGTH_MAX);
        c.enumValue("returnConsumedCapacity", r.returnConsumedCapacity(), Enums.RETURN_CONSUMED_CAPACITY);
        c.range("limit", r.limit(), 1, Integer.MAX_VALUE);
        c.enumValue("returnValuesOnConditionCheckFailure", r.returnValuesOnConditionCheckFailure(),
                Enums.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE);
        c.throwIfAny();
    }

    static void batch(PqRequests.BatchExecuteStatement r) {
        Constraints c = new Constraints();
        List<PqRequests.BatchStatement> list = r.statements();
        if (c.notNull("statements", list)) {
            c.size("statements", list, list.isEmpty() ? "[]" : "[...]", 1, PqLimits.BATCH_STATEMENTS_MAX);
            for (int i = 0; i < list.size() && i < PqLimits.BATCH_STATEMENTS_MAX; i++) {
                String base = "statements." + (i + 1) + ".member.";
                PqRequests.BatchStatement s = list.get(i);
                statement(c, base + "statement", s.statement());
                parameters(c, base + "parameters", s.parameters());
                c.enumValue(base + "returnValuesOnConditionCheckFailure", s.returnValuesOnConditionCheckFailure(),
                        Enums.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE);
            }
        }
        c.enumValue("returnConsumedCapacity", r.returnConsumedCapacity(), Enums.RETURN_CONSUMED_CAPACITY);
        c.throwIfAny();
    }

    static void transaction(PqRequests.ExecuteTransaction r) {
        Constraints c = new Constraints();
        List<PqRequests.TransactStatement> list = r.transactStatements();
        if (c.notNull("transactStatements", list)) {
            c.size("transactStatements", list, list.isEmpty() ? "[]" : "[...]", 1,
                    PqLimits.TRANSACTION_STATEMENTS_MAX);
            for (int i = 0; i < list.size() && i < PqLimits.TRANSACTION_STATEMENTS_MAX; i++) {
                String base = "transactStatements." + (i + 1) + ".member.";
                PqRequests.TransactStatement s = list.get(i);
                statement(c, base + "statement", s.statement());
                parameters(c, base + "parameters", s.parameters());
                c.enumValue(base + "returnValuesOnConditionCheckFailure", s.returnValuesOnConditionCheckFailure(),
                        Enums.RETURN_VALUES_ON_CONDITION_CHECK_FAILURE);
            }
        }
        c.length("clientRequestToken", r.clientRequestToken(), 1, PqLimits.CLIENT_TOKEN_LENGTH_MAX);
        c.enumValue("returnConsumedCapacity", r.returnConsumedCapacity(), Enums.RETURN_CONSUMED_CAPACITY);
        c.throwIfAny();
    }

    private static void statement(Constraints c, String path, String statement) {
        if (c.notNull(path, statement)) {
            c.length(path, statement, 1, PqLimits.STATEMENT_LENGTH_MAX);
        }
    }

    private static void parameters(Constraints c, String path, List<?> parameters) {
        if (parameters != null) {
            c.size(path, parameters, parameters.isEmpty() ? "[]" : "[...]", PqLimits.PARAMETERS_MIN, Integer.MAX_VALUE);
        }
    }
}
