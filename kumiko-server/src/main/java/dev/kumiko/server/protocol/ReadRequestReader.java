package dev.kumiko.server.protocol;

import dev.kumiko.engine.read.ReadRequests;
import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.Select;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes Query and Scan bodies: members read in the model's order, typed, then checked ({@link ItemMembers}). */
final class ReadRequestReader {
    private ReadRequestReader() {}

    static ReadRequests.Query query(Map<String, Object> b) {
        Common common = Common.read(b, "QueryFilter");
        String keyConditionExpression = Fields.string(b, "KeyConditionExpression");
        Map<String, LegacyCondition> keyConditions = legacyConditions(b, "KeyConditions");
        Boolean scanIndexForward = Fields.bool(b, "ScanIndexForward");
        var r = new ReadRequests.Query(common.typed(), keyConditionExpression, keyConditions, scanIndexForward);
        MemberViolations.check(r, () -> common.check(null, null));
        return r;
    }

    static ReadRequests.Scan scan(Map<String, Object> b) {
        Common common = Common.read(b, "ScanFilter");
        Long segment = Fields.longValue(b, "Segment");
        Long totalSegments = Fields.longValue(b, "TotalSegments");
        var r = new ReadRequests.Scan(common.typed(), segment, totalSegments);
        MemberViolations.check(r, () -> common.check(segment, totalSegments));
        return r;
    }

    /** The members Query and Scan share, with the enum members as the wire sent them. */
    private record Common(
            ReadRequests.Common lenient,
            @Nullable String select,
            @Nullable String returnConsumedCapacity) {

        static Common read(Map<String, Object> b, String filterMember) {
            String tableName = Fields.string(b, "TableName");
            String indexName = Fields.string(b, "IndexName");
            String select = Fields.string(b, "Select");
            Long limit = Fields.longValue(b, "Limit");
            Boolean consistentRead = Fields.bool(b, "ConsistentRead");
            Map<String, AttributeValue> exclusiveStartKey = AttributeValues.item(b, "ExclusiveStartKey");
            String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
            return new Common(
                    new ReadRequests.Common(
                            tableName,
                            indexName,
                            null,
                            limit,
                            consistentRead,
                            exclusiveStartKey,
                            null,
                            Fields.string(b, "FilterExpression"),
                            Fields.string(b, "ProjectionExpression"),
                            Fields.stringMap(b, "ExpressionAttributeNames"),
                            AttributeValues.item(b, "ExpressionAttributeValues"),
                            legacyConditions(b, filterMember),
                            Fields.string(b, "ConditionalOperator"),
                            Fields.strings(b, "AttributesToGet")),
                    select,
                    returnConsumedCapacity);
        }

        void check(@Nullable Long segment, @Nullable Long totalSegments) {
            ItemMembers.read(
                    lenient.tableName(),
                    lenient.indexName(),
                    select,
                    lenient.limit(),
                    segment,
                    totalSegments,
                    returnConsumedCapacity);
        }

        /** The engine's request (an enum member that is not one of its values reads as absent). */
        ReadRequests.Common typed() {
            ReadRequests.Common c = lenient;
            return new ReadRequests.Common(
                    c.tableName(),
                    c.indexName(),
                    WireEnums.lenient(Select.class, select),
                    c.limit(),
                    c.consistentRead(),
                    c.exclusiveStartKey(),
                    WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity),
                    c.filterExpression(),
                    c.projectionExpression(),
                    c.expressionAttributeNames(),
                    c.expressionAttributeValues(),
                    c.legacyFilter(),
                    c.conditionalOperator(),
                    c.attributesToGet());
        }
    }

    /** KeyConditions / QueryFilter / ScanFilter: name -> {ComparisonOperator, AttributeValueList}. */
    static @Nullable Map<String, LegacyCondition> legacyConditions(Map<String, Object> b, String member) {
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
