package dev.kumiko.server.protocol;

import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.engine.txn.TransactRequests.Kind;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes TransactWriteItems and TransactGetItems bodies: read, typed, checked ({@link TransactConstraints}). */
final class TransactRequestReader {
    /** The operation members of a TransactWriteItem, in the model's order. */
    private static final List<Map.Entry<String, Kind>> WRITE_MEMBERS = List.of(
            Map.entry("ConditionCheck", Kind.CONDITION_CHECK), Map.entry("Put", Kind.PUT),
            Map.entry("Delete", Kind.DELETE), Map.entry("Update", Kind.UPDATE));

    private TransactRequestReader() {}

    static TransactRequests.TransactWrite transactWrite(Map<String, Object> b) {
        List<Object> raw = Fields.list(b, "TransactItems");
        List<TransactRequests.WriteAction> items = null;
        List<String> onConditionFailure = new ArrayList<>();
        if (raw != null) {
            items = new ArrayList<>(raw.size());
            for (Object o : raw) {
                Map<String, Object> w = Fields.asObject(o);
                items.add(writeAction(w, onConditionFailure));
            }
        }
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        String returnItemCollectionMetrics = Fields.string(b, "ReturnItemCollectionMetrics");
        String clientRequestToken = Fields.string(b, "ClientRequestToken");
        var r = new TransactRequests.TransactWrite(
                items,
                WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity),
                WireEnums.lenient(ReturnItemCollectionMetrics.class, returnItemCollectionMetrics),
                clientRequestToken);
        MemberViolations.check(
                r,
                () -> TransactConstraints.write(
                        r.transactItems(),
                        onConditionFailure,
                        clientRequestToken,
                        returnConsumedCapacity,
                        returnItemCollectionMetrics));
        return r;
    }

    /** One action; its ReturnValuesOnConditionCheckFailure as sent goes to {@code onConditionFailure}. */
    private static TransactRequests.WriteAction writeAction(
            @Nullable Map<String, Object> w, List<@Nullable String> onConditionFailure) {
        int given = 0;
        Kind kind = null;
        Map<String, Object> op = null;
        for (Map.Entry<String, Kind> m : WRITE_MEMBERS) {
            Map<String, Object> candidate = w == null ? null : Fields.object(w, m.getKey());
            if (candidate != null) {
                given++;
                if (op == null) {
                    op = candidate;
                    kind = m.getValue();
                }
            }
        }
        if (op == null) {
            onConditionFailure.add(null);
            return new TransactRequests.WriteAction(0, null, null, null, null, null, null, null, null, null);
        }
        String tableName = Fields.string(op, "TableName");
        Map<String, AttributeValue> item = kind == Kind.PUT ? AttributeValues.item(op, "Item") : null;
        Map<String, AttributeValue> key = kind == Kind.PUT ? null : AttributeValues.item(op, "Key");
        String conditionExpression = Fields.string(op, "ConditionExpression");
        String updateExpression = kind == Kind.UPDATE ? Fields.string(op, "UpdateExpression") : null;
        Map<String, String> names = Fields.stringMap(op, "ExpressionAttributeNames");
        Map<String, AttributeValue> values = AttributeValues.item(op, "ExpressionAttributeValues");
        String onFailure = Fields.string(op, "ReturnValuesOnConditionCheckFailure");
        onConditionFailure.add(onFailure);
        return new TransactRequests.WriteAction(
                given,
                kind,
                tableName,
                item,
                key,
                conditionExpression,
                updateExpression,
                names,
                values,
                WireEnums.lenient(ReturnValuesOnConditionCheckFailure.class, onFailure));
    }

    static TransactRequests.TransactGet transactGet(Map<String, Object> b) {
        List<Object> raw = Fields.list(b, "TransactItems");
        List<TransactRequests.GetAction> items = null;
        if (raw != null) {
            items = new ArrayList<>(raw.size());
            for (Object o : raw) {
                Map<String, Object> item = Fields.asObject(o);
                items.add(getAction(item == null ? null : Fields.object(item, "Get")));
            }
        }
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        var r = new TransactRequests.TransactGet(
                items, WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity));
        MemberViolations.check(r, () -> TransactConstraints.get(r.transactItems(), returnConsumedCapacity));
        return r;
    }

    private static TransactRequests.GetAction getAction(@Nullable Map<String, Object> g) {
        if (g == null) {
            return new TransactRequests.GetAction(false, null, null, null, null);
        }
        return new TransactRequests.GetAction(
                true,
                Fields.string(g, "TableName"),
                AttributeValues.item(g, "Key"),
                Fields.string(g, "ProjectionExpression"),
                Fields.stringMap(g, "ExpressionAttributeNames"));
    }
}
