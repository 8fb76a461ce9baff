package dev.kumiko.server.protocol;

import dev.kumiko.engine.read.ReadRequests;
import dev.kumiko.expr.LegacyCondition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Decodes Query and Scan bodies. */
final class ReadRequestReader {
    private ReadRequestReader() {}

    static ReadRequests.Query query(Map<String, Object> b) {
        return new ReadRequests.Query(common(b, "QueryFilter"),
                Fields.string(b, "KeyConditionExpression"),
                legacyConditions(b, "KeyConditions"),
                Fields.bool(b, "ScanIndexForward"));
    }

    static ReadRequests.Scan scan(Map<String, Object> b) {
        return new ReadRequests.Scan(common(b, "ScanFilter"),
                Fields.longValue(b, "Segment"),
                Fields.longValue(b, "TotalSegments"));
    }

    private static ReadRequests.Common common(Map<String, Object> b, String filterMember) {
        return new ReadRequests.Common(
                Fields.string(b, "TableName"),
                Fields.string(b, "IndexName"),
                Fields.string(b, "Select"),
                Fields.longValue(b, "Limit"),
                Fields.bool(b, "ConsistentRead"),
                AttributeValues.item(b, "ExclusiveStartKey"),
                Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "FilterExpression"),
                Fields.string(b, "ProjectionExpression"),
                Fields.stringMap(b, "ExpressionAttributeNames"),
                AttributeValues.item(b, "ExpressionAttributeValues"),
                legacyConditions(b, filterMember),
                Fields.string(b, "ConditionalOperator"),
                Fields.strings(b, "AttributesToGet"));
    }

    /** KeyConditions / QueryFilter / ScanFilter: name -> {ComparisonOperator, AttributeValueList}. */
    static Map<String, LegacyCondition> legacyConditions(Map<String, Object> b, String member) {
        Map<String, Object> raw = Fields.object(b, member);
        if (raw == null) {
            return null;
        }
        Map<String, LegacyCondition> out = new LinkedHashMap<>();
        // A JSON null condition reads as an empty one (as Expected does), so that its missing
        // ComparisonOperator is reported (found by the fuzzer: it was a NullPointerException).
        raw.forEach((name, v) -> {
            Map<String, Object> c = Fields.asObject(v);
            out.put(name, condition(c == null ? Map.of() : c));
        });
        return out;
    }

    private static LegacyCondition condition(Map<String, Object> c) {
        List<Object> rawValues = Fields.list(c, "AttributeValueList");
        List<dev.kumiko.model.AttributeValue> values = null;
        if (rawValues != null) {
            values = new java.util.ArrayList<>(rawValues.size());
            for (Object o : rawValues) {
                values.add(AttributeValues.decode(o, 0));
            }
        }
        return new LegacyCondition(null, null, Fields.string(c, "ComparisonOperator"), values);
    }
}
