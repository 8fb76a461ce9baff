package dev.kumiko.partiql;

import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.UpdateAction;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A parsed PartiQL statement with its parameters already bound: every {@code ?} and literal is an
 * {@link Operand.Literal}. Conditions and update actions are the expression package's own AST, so
 * planning can hand them to the engine's existing evaluator.
 */
public sealed interface PqStatement {

    String tableName();

    /** The IAM action that authorizes the statement: PartiQLSelect, PartiQLInsert, ... */
    String action();

    /** {@code projection} is null for {@code *}; {@code where} is null without a WHERE clause. */
    record Select(
            @Nullable List<Operand.Path> projection,
            String tableName,
            @Nullable String indexName,
            @Nullable Condition where,
            List<OrderBy> orderBy)
            implements PqStatement {
        @Override
        public String action() {
            return "PartiQLSelect";
        }

        /** True when the WHERE fixes the top-level attribute with {@code =} in its top-level AND chain. */
        public boolean fixes(String attribute) {
            for (Condition term : PqKeys.conjuncts(where)) {
                if (PqKeys.equality(term, attribute) != null) {
                    return true;
                }
            }
            return false;
        }
    }

    record Insert(String tableName, Map<String, AttributeValue> item) implements PqStatement {
        @Override
        public String action() {
            return "PartiQLInsert";
        }
    }

    /** {@code returnValues} is the UpdateItem ReturnValues the RETURNING clause asks for, or null. */
    record Update(
            String tableName,
            List<UpdateAction> actions,
            @Nullable Condition where,
            @Nullable ReturnValue returnValues) implements PqStatement {
        @Override
        public String action() {
            return "PartiQLUpdate";
        }
    }

    record Delete(
            String tableName,
            @Nullable Condition where,
            @Nullable ReturnValue returnValues) implements PqStatement {
        @Override
        public String action() {
            return "PartiQLDelete";
        }
    }

    /** {@code EXISTS(SELECT ...)}: a condition check inside ExecuteTransaction. */
    record Exists(Select select) implements PqStatement {
        @Override
        public String tableName() {
            return select.tableName();
        }

        @Override
        public String action() {
            return "PartiQLSelect";
        }
    }

    record OrderBy(Operand.Path path, boolean descending) {}

    default boolean isRead() {
        return this instanceof Select;
    }
}
