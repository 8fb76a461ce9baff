package dev.kumiko.server.protocol;

import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.engine.txn.TransactRequests.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decodes TransactWriteItems and TransactGetItems bodies. */
final class TransactRequestReader {
    /** The operation members of a TransactWriteItem, in the model's order. */
    private static final List<Map.Entry<String, Kind>> WRITE_MEMBERS = List.of(
            Map.entry("ConditionCheck", Kind.CONDITION_CHECK), Map.entry("Put", Kind.PUT),
            Map.entry("Delete", Kind.DELETE), Map.entry("Update", Kind.UPDATE));

    private TransactRequestReader() {}

    static TransactRequests.TransactWrite transactWrite(Map<String, Object> b) {
        List<Object> raw = Fields.list(b, "TransactItems");
        List<TransactRequests.WriteAction> items = null;
        if (raw != null) {
            items = new ArrayList<>(raw.size());
            for (Object o : raw) {
                items.add(writeAction(Fields.asObject(o)));
            }
        }
        return new TransactRequests.TransactWrite(items, Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "ReturnItemCollectionMetrics"), Fields.string(b, "ClientRequestToken"));
    }

    private static TransactRequests.WriteAction writeAction(Map<String, Object> w) {
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
            return new TransactRequests.WriteAction(0, null, null, null, null, null, null, null, null, null);
        }
        return new TransactRequests.WriteAction(given, kind, Fields.string(op, "TableName"),
                kind == Kind.PUT ? AttributeValues.item(op, "Item") : null,
                kind == Kind.PUT ? null : AttributeValues.item(op, "Key"),
                Fields.string(op, "ConditionExpression"),
                kind == Kind.UPDATE ? Fields.string(op, "UpdateExpression") : null,
                Fields.stringMap(op, "ExpressionAttributeNames"),
                AttributeValues.item(op, "ExpressionAttributeValues"),
                Fields.string(op, "ReturnValuesOnConditionCheckFailure"));
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
        return new TransactRequests.TransactGet(items, Fields.string(b, "ReturnConsumedCapacity"));
    }

    private static TransactRequests.GetAction getAction(Map<String, Object> g) {
        if (g == null) {
            return new TransactRequests.GetAction(false, null, null, null, null);
        }
        return new TransactRequests.GetAction(true, Fields.string(g, "TableName"), AttributeValues.item(g, "Key"),
                Fields.string(g, "ProjectionExpression"), Fields.stringMap(g, "ExpressionAttributeNames"));
    }
}
