package dev.kumiko.partiql;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.engine.item.ItemOperations;
import dev.kumiko.engine.item.ItemResult;
import dev.kumiko.engine.read.ReadOperations;
import dev.kumiko.engine.read.ReadResult;
import dev.kumiko.engine.txn.TransactionOperations;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ExecuteStatement: parses the statement, plans it as the equivalent DynamoDB operation and runs
 * that on the engine, so the answer, the errors and the ConsumedCapacity are that operation's.
 * BatchExecuteStatement and ExecuteTransaction build on the same steps ({@link PqBatch},
 * {@link PqTransaction}).
 */
public final class PqOperations {
    private final PqPlanner planner;
    private final ItemOperations items;
    private final ReadOperations reads;
    private final PqBatch batch;
    private final PqTransaction transaction;

    /** Built by the engine, which hands it out as {@code Engine.partiql()}. */
    public PqOperations(
            Catalog catalog, ItemOperations items, ReadOperations reads, TransactionOperations transactions) {
        this.planner = new PqPlanner(catalog);
        this.items = items;
        this.reads = reads;
        this.batch = new PqBatch(this, planner);
        this.transaction = new PqTransaction(planner, transactions);
    }

    public PqResults.ExecuteStatement executeStatement(PqRequests.ExecuteStatement r) {
        PqStatement s = r.parse().statement();
        return run(
                s,
                r.consistentRead(),
                r.limit(),
                PqNextToken.decode(r.nextToken()),
                r.returnConsumedCapacity(),
                r.returnValuesOnConditionCheckFailure());
    }

    public PqResults.BatchExecuteStatement batchExecuteStatement(PqRequests.BatchExecuteStatement r) {
        return batch.run(r);
    }

    public PqResults.ExecuteTransaction executeTransaction(PqRequests.ExecuteTransaction r) {
        return transaction.run(r);
    }

    /** Runs one parsed statement as its equivalent operation. */
    PqResults.ExecuteStatement run(
            PqStatement s,
            @Nullable Boolean consistentRead,
            @Nullable Long limit,
            @Nullable Map<String, AttributeValue> startKey,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure) {
        if (s instanceof PqStatement.Select select) {
            PqPlanner.Read plan = planner.select(select, consistentRead, limit, startKey, returnConsumedCapacity);
            if (plan.get() != null) {
                // Not written(): a projection that finds none of its attributes answers the item as
                // {}, as the Query would, where a write's empty RETURNING answers no item.
                ItemResult got = items.getItem(plan.get());
                List<Map<String, AttributeValue>> out = new ArrayList<>(1);
                if (got.attributes() != null) {
                    out.add(got.attributes());
                }
                return new PqResults.ExecuteStatement(plan.shape(out), null, null, got.consumedCapacity());
            }
            ReadResult rr = plan.query() != null
                    ? reads.query(plan.query())
                    : reads.scan(Objects.requireNonNull(plan.scan(), "a plan reads by get, query or scan"));
            Map<String, AttributeValue> last = rr.lastEvaluatedKey();
            return new PqResults.ExecuteStatement(
                    plan.shape(Objects.requireNonNull(rr.items(), "PartiQL never counts only")),
                    PqNextToken.encode(last),
                    last == null || last.isEmpty() ? null : last,
                    rr.consumedCapacity());
        }
        if (s instanceof PqStatement.Insert insert) {
            try {
                return written(items.putItem(planner.insert(insert, returnConsumedCapacity, onConditionFailure)));
            } catch (ConditionalCheckFailed e) {
                throw PqErrors.duplicateItem();
            }
        }
        if (s instanceof PqStatement.Update update) {
            return written(items.updateItem(planner.update(update, returnConsumedCapacity, onConditionFailure)));
        }
        if (s instanceof PqStatement.Delete delete) {
            return written(items.deleteItem(planner.delete(delete, returnConsumedCapacity, onConditionFailure)));
        }
        // UNVERIFIED wording: EXISTS is a condition check, which only a transaction can carry.
        throw PqErrors.validation("EXISTS is supported only in ExecuteTransaction");
    }

    /** A write answers an empty Items list, or the RETURNING item when it has attributes. */
    private static PqResults.ExecuteStatement written(ItemResult r) {
        List<Map<String, AttributeValue>> out = new ArrayList<>(1);
        if (r.attributes() != null && !r.attributes().isEmpty()) {
            out.add(r.attributes());
        }
        return new PqResults.ExecuteStatement(out, null, null, r.consumedCapacity());
    }
}
