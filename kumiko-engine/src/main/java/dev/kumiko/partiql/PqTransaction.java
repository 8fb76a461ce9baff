package dev.kumiko.partiql;

import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.engine.txn.TransactResults;
import dev.kumiko.engine.txn.TransactionOperations;
import dev.kumiko.expr.Condition;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * ExecuteTransaction on the engine's transactions: a transaction of SELECTs is a TransactGetItems,
 * one of INSERT / UPDATE / DELETE / EXISTS(SELECT ...) a TransactWriteItems (EXISTS is its
 * ConditionCheck), with the ClientRequestToken passed through for idempotency. An INSERT that
 * finds its item cancels the transaction with the reason DuplicateItem.
 */
final class PqTransaction {
    private static final String DUPLICATE_ITEM = "DuplicateItem";

    private final PqPlanner planner;
    private final TransactionOperations transactions;

    PqTransaction(PqPlanner planner, TransactionOperations transactions) {
        this.planner = planner;
        this.transactions = transactions;
    }

    PqResults.ExecuteTransaction run(PqRequests.ExecuteTransaction r) {
        List<PqStatement> statements = new ArrayList<>(r.transactStatements().size());
        for (PqRequests.TransactStatement s : r.transactStatements()) {
            statements.add(s.parse().statement());
        }
        long reads = statements.stream().filter(PqStatement::isRead).count();
        if (reads == statements.size()) {
            return get(statements, r.returnConsumedCapacity());
        }
        if (reads > 0) {
            // UNVERIFIED wording: a transaction is all reads or all writes (EXISTS counts as a write's check).
            throw PqErrors.validation("Transactions must contain only read statements or only write statements");
        }
        return write(statements, r);
    }

    private PqResults.ExecuteTransaction get(
            List<PqStatement> statements, @Nullable ReturnConsumedCapacity returnConsumedCapacity) {
        List<TransactRequests.GetAction> actions = new ArrayList<>(statements.size());
        List<PqProjection> shapes = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            PqStatement.Select s = (PqStatement.Select) statements.get(i);
            List<Condition> rest = new ArrayList<>();
            Map<String, AttributeValue> key = planner.singleItemKey(s, rest);
            if (key == null || !rest.isEmpty()) {
                // Observed wording.
                throw PqErrors.validation(
                        prefix(i)
                                + "Select statements within ExecuteTransaction must specify the primary key in the where clause.");
            }
            actions.add(planner.getAction(s, key));
            shapes.add(PqProjection.of(s.projection()));
        }
        TransactResults.TransactGet result =
                transactions.transactGetItems(new TransactRequests.TransactGet(actions, returnConsumedCapacity));
        List<Map<String, AttributeValue>> responses =
                new ArrayList<>(result.responses().size());
        for (int i = 0; i < result.responses().size(); i++) {
            PqProjection shape = i < shapes.size() ? shapes.get(i) : null;
            Map<String, AttributeValue> item = result.responses().get(i);
            responses.add(shape == null ? item : shape.shape(item));
        }
        return new PqResults.ExecuteTransaction(responses, result.consumedCapacity());
    }

    private PqResults.ExecuteTransaction write(List<PqStatement> statements, PqRequests.ExecuteTransaction r) {
        List<TransactRequests.WriteAction> actions = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            actions.add(planner.writeAction(
                    statements.get(i), r.transactStatements().get(i).returnValuesOnConditionCheckFailure(), prefix(i)));
        }
        try {
            TransactResults.TransactWrite result = transactions.transactWriteItems(new TransactRequests.TransactWrite(
                    actions, r.returnConsumedCapacity(), null, r.clientRequestToken()));
            return new PqResults.ExecuteTransaction(List.of(), result.consumedCapacity());
        } catch (TransactionCanceled e) {
            throw new TransactionCanceled(duplicates(e.reasons(), statements));
        }
    }

    /** An INSERT's failed "item must not exist" condition is DynamoDB's DuplicateItem reason. */
    private static List<CancellationReason> duplicates(List<CancellationReason> reasons, List<PqStatement> statements) {
        List<CancellationReason> out = new ArrayList<>(reasons.size());
        for (int i = 0; i < reasons.size(); i++) {
            CancellationReason reason = reasons.get(i);
            boolean insert = i < statements.size() && statements.get(i) instanceof PqStatement.Insert;
            if (insert && CancellationReason.CONDITIONAL_CHECK_FAILED.equals(reason.code())) {
                reason = new CancellationReason(DUPLICATE_ITEM, PqErrors.DUPLICATE_ITEM, null);
            }
            out.add(reason);
        }
        return out;
    }

    private static String prefix(int i) {
        return "Validation failed in TransactStatements[" + i + "]: ";
    }
}
