package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Table;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One validated TransactWriteItems action. {@code problem} is the ValidationError reason a static
 * check found (the action then cancels the transaction when it runs); {@code storageKey} is null
 * when the key itself is invalid, so there is no item to lock or read. {@code item} and
 * {@code itemBytes} are Put's; {@code key} is the item's key in every kind.
 */
record TransactAction(
        int index,
        TransactRequests.Kind kind,
        Table table,
        byte @Nullable [] storageKey,
        Map<String, AttributeValue> key,
        @Nullable Map<String, AttributeValue> item,
        long itemBytes,
        RequestExpressions expressions,
        boolean returnOldOnFailure,
        @Nullable String problem) {}
