package dev.kumiko.server.protocol;

import dev.kumiko.expr.LegacyCondition;
import dev.kumiko.expr.LegacyUpdate;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes the legacy members: Expected, KeyConditions / QueryFilter / ScanFilter, AttributeUpdates. */
public final class LegacyMembers {
    private LegacyMembers() {}

    /** A map of attribute name to ExpectedAttributeValue or Condition; null when absent. */
    public static @Nullable Map<String, LegacyCondition> conditions(Map<String, Object> b, String member) {
        Map<String, Object> raw = Fields.object(b, member);
        if (raw == null) {
            return null;
        }
        Map<String, LegacyCondition> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            Map<String, Object> c = Fields.asObject(e.getValue());
            out.put(e.getKey(), c == null ? new LegacyCondition(null, null, null, null) : condition(c));
        }
        return out;
    }

    private static LegacyCondition condition(Map<String, Object> c) {
        Object value = c.get("Value");
        AttributeValue v = value == null || value == dev.kumiko.server.json.JsonNull.INSTANCE
                ? null
                : AttributeValues.decode(value, 0);
        List<Object> rawList = Fields.list(c, "AttributeValueList");
        List<AttributeValue> list = null;
        if (rawList != null) {
            list = new ArrayList<>(rawList.size());
            for (Object o : rawList) {
                list.add(AttributeValues.decode(o, 0));
            }
        }
        return new LegacyCondition(v, Fields.bool(c, "Exists"), Fields.string(c, "ComparisonOperator"), list);
    }

    public static @Nullable Map<String, LegacyUpdate> attributeUpdates(Map<String, Object> b) {
        Map<String, Object> raw = Fields.object(b, "AttributeUpdates");
        if (raw == null) {
            return null;
        }
        Map<String, LegacyUpdate> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            Map<String, Object> u = Fields.asObject(e.getValue());
            if (u == null) {
                out.put(e.getKey(), new LegacyUpdate(null, null));
                continue;
            }
            Object value = u.get("Value");
            AttributeValue v = value == null || value == dev.kumiko.server.json.JsonNull.INSTANCE
                    ? null
                    : AttributeValues.decode(value, 0);
            out.put(e.getKey(), new LegacyUpdate(Fields.string(u, "Action"), v));
        }
        return out;
    }
}
