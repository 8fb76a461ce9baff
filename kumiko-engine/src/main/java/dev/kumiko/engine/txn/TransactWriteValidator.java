package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.DuplicateKeys;
import dev.kumiko.engine.check.ItemNames;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything about a TransactWriteItems request that can be refused before it runs, in DynamoDB's
 * order (captured against AWS, docs/notes/error-messages.md): member constraints; one operation per
 * action; every action's expressions, in request order, before any table is looked up; then per
 * action its table, empty key values and a Put's item size; then duplicate targets and the 4 MB
 * aggregate. Problems DynamoDB reports as cancellation reasons are recorded on the action instead.
 */
final class TransactWriteValidator {

    private final Catalog catalog;

    TransactWriteValidator(Catalog catalog) {
        this.catalog = catalog;
    }

    List<TransactAction> validate(TransactRequests.TransactWrite r) {
        List<TransactRequests.WriteAction> items = r.transactItems();
        checkOneOperationEach(items);
        List<RequestExpressions> expressions = new ArrayList<>(items.size());
        for (TransactRequests.WriteAction a : items) {
            expressions.add(expressions(a));
        }
        List<TransactAction> actions = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            actions.add(resolve(i, items.get(i), expressions.get(i)));
        }
        DuplicateKeys.refuse(
                actions.stream().map(TransactAction::storageKey).toList(),
                TransactChecks.MULTIPLE_OPERATIONS_ON_ONE_ITEM);
        checkAggregateSize(actions);
        return actions;
    }

    private static void checkOneOperationEach(List<TransactRequests.WriteAction> items) {
        for (TransactRequests.WriteAction a : items) {
            if (a.kindsGiven() != 1) {
                // Observed for two operations in one action; the answer for none is UNVERIFIED.
                throw DynamoException.validation("TransactItems can only contain one of Check, Put, Update or Delete");
            }
        }
    }

    private static RequestExpressions expressions(TransactRequests.WriteAction a) {
        return RequestExpressions.builder()
                .conditionExpression(a.conditionExpression())
                .updateExpression(a.updateExpression())
                .expressionAttributeNames(a.expressionAttributeNames())
                .expressionAttributeValues(a.expressionAttributeValues())
                .build();
    }

    private TransactAction resolve(int index, TransactRequests.WriteAction a, RequestExpressions expr) {
        // One operation each (checkOneOperationEach) with its Item or Key (the server's TransactConstraints).
        TransactRequests.Kind kind = Objects.requireNonNull(a.kind(), "one operation each");
        Table table = TransactChecks.table(
                catalog, a.tableName(), "transactItems." + (index + 1) + ".member." + kind.member() + ".tableName");
        TableDescriptor d = table.descriptor();
        KeyPathCheck.check(d, expr);
        boolean returnOld = a.returnValuesOnConditionCheckFailure() == ReturnValuesOnConditionCheckFailure.ALL_OLD;
        if (kind == TransactRequests.Kind.PUT) {
            Map<String, AttributeValue> item = Objects.requireNonNull(a.item(), "Put.Item is required");
            String problem = TransactKeys.itemProblem(d, item);
            long bytes = ItemSize.of(item);
            if (bytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
                // A Put's size is known from the request, so DynamoDB refuses it before the transaction runs.
                throw DynamoException.validation("Item size has exceeded the maximum allowed size");
            }
            ItemNames.check(item);
            if (problem != null) {
                return new TransactAction(index, kind, table, null, Map.of(), item, bytes, expr, returnOld, problem);
            }
            return new TransactAction(
                    index,
                    kind,
                    table,
                    TransactKeys.storageKey(d, item),
                    TransactKeys.keyOf(d, item),
                    item,
                    bytes,
                    expr,
                    returnOld,
                    null);
        }
        if (a.kind() == TransactRequests.Kind.UPDATE && a.expressionAttributeValues() != null) {
            // The names inside the values an Update writes, as for a Put's item.
            a.expressionAttributeValues().values().forEach(ItemNames::checkValue);
        }
        Map<String, AttributeValue> key = Objects.requireNonNull(a.key(), "the Key is required");
        String problem = TransactKeys.keyProblem(d, key);
        expr.checkUpdateKeys(keyNames(d));
        byte[] storageKey = problem == null ? TransactKeys.storageKey(d, key) : null;
        return new TransactAction(index, kind, table, storageKey, key, null, 0, expr, returnOld, problem);
    }

    private static List<String> keyNames(TableDescriptor d) {
        return d.rangeKeyName() == null ? List.of(d.hashKeyName()) : List.of(d.hashKeyName(), d.rangeKeyName());
    }

    /**
     * Puts count their item, the other actions their key: what the request itself carries. (An
     * Update's final size is only known while it runs, and is held to 400 KB there.)
     */
    private static void checkAggregateSize(List<TransactAction> actions) {
        long total = 0;
        for (TransactAction a : actions) {
            total += a.item() != null ? a.itemBytes() : ItemSize.of(a.key());
        }
        if (total > TransactChecks.TRANSACTION_BYTES_MAX) {
            throw DynamoException.validation(TransactChecks.AGGREGATE_SIZE_MESSAGE);
        }
    }
}
