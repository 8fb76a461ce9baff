package dev.kumiko.partiql;

import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.Condition;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * BatchExecuteStatement: up to 25 statements, all reads or all writes, each run on its own as
 * ExecuteStatement would run it. A statement that fails gets an Error entry in its place; the
 * others still run. Reads must name one item by its full primary key.
 */
final class PqBatch {
    private final PqOperations operations;
    private final PqPlanner planner;

    PqBatch(PqOperations operations, PqPlanner planner) {
        this.operations = operations;
        this.planner = planner;
    }

    PqResults.BatchExecuteStatement run(PqRequests.BatchExecuteStatement r) {
        List<Object> parsed = new ArrayList<>(r.statements().size());
        for (PqRequests.BatchStatement s : r.statements()) {
            parsed.add(parse(s));
        }
        refuseMixed(parsed);
        PqCapacity capacity = new PqCapacity();
        List<PqResults.BatchEntry> out = new ArrayList<>(parsed.size());
        for (int i = 0; i < parsed.size(); i++) {
            if (parsed.get(i) instanceof DynamoException e) {
                out.add(failed(null, e));
            } else {
                out.add(one((PqStatement) parsed.get(i), r.statements().get(i), r.returnConsumedCapacity(), capacity));
            }
        }
        return new PqResults.BatchExecuteStatement(out, capacity.list());
    }

    /** The statement, or the ValidationException that becomes its Error entry. */
    private static Object parse(PqRequests.BatchStatement s) {
        try {
            return s.parse().statement();
        } catch (DynamoException e) {
            return e;
        }
    }

    private static void refuseMixed(List<Object> parsed) {
        boolean reads = false;
        boolean writes = false;
        for (Object o : parsed) {
            if (o instanceof PqStatement s) {
                reads |= s.isRead();
                writes |= !s.isRead();
            }
        }
        if (reads && writes) {
            // UNVERIFIED wording: the Developer Guide says a batch is all reads or all writes.
            throw PqErrors.validation("Batch statements must be either all reads or all writes");
        }
    }

    private PqResults.BatchEntry one(
            PqStatement s,
            PqRequests.BatchStatement request,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            PqCapacity capacity) {
        try {
            if (s instanceof PqStatement.Select select && !readsOneItem(select)) {
                // Observed wording.
                throw PqErrors.validation(
                        "Select statements within BatchExecuteStatement must specify the primary key in the where clause.");
            }
            PqResults.ExecuteStatement r = operations.run(
                    s,
                    request.consistentRead(),
                    null,
                    null,
                    returnConsumedCapacity,
                    request.returnValuesOnConditionCheckFailure());
            capacity.add(r.consumedCapacity());
            Map<String, AttributeValue> item =
                    r.items() == null || r.items().isEmpty() ? null : r.items().get(0);
            return new PqResults.BatchEntry(s.tableName(), item, null);
        } catch (DynamoException e) {
            return failed(s.tableName(), e);
        }
    }

    private boolean readsOneItem(PqStatement.Select s) {
        return planner.singleItemKey(s, new ArrayList<Condition>()) != null;
    }

    private static PqResults.BatchEntry failed(@Nullable String tableName, DynamoException e) {
        Map<String, AttributeValue> item = e instanceof ConditionalCheckFailed ccf ? ccf.item() : null;
        return new PqResults.BatchEntry(tableName, null, new PqResults.BatchError(code(e), e.getMessage(), item));
    }

    /** The BatchStatementErrorCodeEnum value for an error. */
    private static String code(DynamoException e) {
        switch (e.code()) {
            case CONDITIONAL_CHECK_FAILED:
                return "ConditionalCheckFailed";
            case DUPLICATE_ITEM:
                return "DuplicateItem";
            case VALIDATION:
                return "ValidationError";
            case RESOURCE_NOT_FOUND:
                return "ResourceNotFound";
            case TRANSACTION_CONFLICT:
                return "TransactionConflict";
            case ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED:
                return "ItemCollectionSizeLimitExceeded";
            case PROVISIONED_THROUGHPUT_EXCEEDED:
                return "ProvisionedThroughputExceeded";
            case THROTTLING:
                return "ThrottlingError";
            case ACCESS_DENIED:
                return "AccessDenied";
            default:
                return "InternalServerError";
        }
    }
}
