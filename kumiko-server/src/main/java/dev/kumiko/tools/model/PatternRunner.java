package dev.kumiko.tools.model;

import dev.kumiko.tools.model.Model.AccessPattern;
import dev.kumiko.tools.model.Model.Request;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs an access pattern's requests against the loaded table and measures them. Templates in keys and
 * values are filled from the sample item of the request's entity (its first item in partition 0), so a
 * pattern that finds nothing means its keys do not match the data the entities describe.
 */
final class PatternRunner {
    /** A Query or Scan without a Limit follows LastEvaluatedKey at most this many pages (1 MB each). */
    static final int PAGES_MAX = 100;

    private static final int UNPROCESSED_RETRIES_MAX = 50;
    private static final Set<String> WRITES =
            Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems");

    private final DynamoClient client;
    private final String tableName;
    private final SampleData data;
    /** Keys of new items the patterns wrote, deleted again before the next pattern. */
    private final List<Map<String, Object>> freshKeys = new ArrayList<>();

    PatternRunner(DynamoClient client, String tableName, SampleData data) {
        this.client = client;
        this.tableName = tableName;
        this.data = data;
    }

    Measurement run(AccessPattern pattern) {
        Measurement m = new Measurement();
        int before = client.requests();
        boolean wrote = false;
        for (Request step : pattern.steps()) {
            try {
                execute(step, m);
            } catch (DynamoClient.CallFailed | ModelError e) {
                throw new ModelError("access pattern \"" + pattern.name() + "\": " + e.getMessage());
            }
            wrote |= WRITES.contains(step.operation());
        }
        m.requests = client.requests() - before;
        if (wrote) {
            restore();
        }
        return m;
    }

    /** Puts the sample data back as it was, so that every pattern is measured on the same items. */
    private void restore() {
        for (Map<String, Object> key : freshKeys) {
            client.call("DeleteItem", Map.of("TableName", tableName, "Key", key));
        }
        freshKeys.clear();
        TableSetup.load(client, tableName, data.items());
    }

    private void execute(Request step, Measurement m) {
        Map<String, Object> f = step.fields();
        Map<String, String> binding = binding(step, 0);
        switch (step.operation()) {
            case "GetItem": {
                Map<String, Object> req = base(f, binding);
                req.put("Key", key(f, binding));
                Map<String, Object> answer = client.call("GetItem", req);
                m.hadReads = true;
                long found = answer.get("Item") == null ? 0 : 1;
                m.itemsRead += found;
                m.itemsReturned += found;
                m.add(answer.get("ConsumedCapacity"), true);
                break;
            }
            case "Query":
            case "Scan":
                page(step.operation(), f, binding, m);
                break;
            case "PutItem": {
                Map<String, Object> req = base(f, binding);
                req.put("Item", freshItem(step));
                m.add(client.call("PutItem", req).get("ConsumedCapacity"), false);
                m.itemsWritten++;
                break;
            }
            case "UpdateItem":
            case "DeleteItem": {
                Map<String, Object> req = base(f, binding);
                req.put("Key", key(f, binding));
                m.add(client.call(step.operation(), req).get("ConsumedCapacity"), false);
                m.itemsWritten++;
                break;
            }
            case "BatchGetItem":
                batchGet(step, m);
                break;
            case "TransactGetItems":
            case "TransactWriteItems":
            case "BatchWriteItem":
                multiItem(step, m);
                break;
            default:
                throw new ModelError("operation " + step.operation() + " cannot be a step of its own");
        }
    }

    private void page(String op, Map<String, Object> f, Map<String, String> binding, Measurement m) {
        Map<String, Object> req = base(f, binding);
        m.hadReads = true;
        m.usedScan |= op.equals("Scan");
        m.usedFilter |= f.get("filter") != null;
        for (int page = 0; ; page++) {
            Map<String, Object> answer = client.call(op, req);
            m.add(answer.get("ConsumedCapacity"), true);
            m.itemsRead += count(answer.get("ScannedCount"));
            m.itemsReturned += count(answer.get("Count"));
            Object last = answer.get("LastEvaluatedKey");
            if (last == null || f.get("limit") != null) {
                return;
            }
            if (page + 1 >= PAGES_MAX) {
                m.truncated = true;
                return;
            }
            req.put("ExclusiveStartKey", last);
        }
    }

    private void batchGet(Request step, Measurement m) {
        Map<String, Object> f = step.fields();
        // A set: repeating past the entity's partitions would name a key twice, which BatchGetItem rejects.
        java.util.Set<Object> keys = new java.util.LinkedHashSet<>();
        for (int r = 0; r < repeat(f); r++) {
            Map<String, String> binding = binding(step, r);
            for (Object k : ModelReader.list(f.get("keys"), "keys", true)) {
                keys.add(renderKey(ModelReader.object(k, "key", true), binding));
            }
        }
        Map<String, Object> tableRequest = new LinkedHashMap<>();
        tableRequest.put("Keys", new ArrayList<>(keys));
        copy(f, "consistentRead", tableRequest, "ConsistentRead");
        copy(f, "projection", tableRequest, "ProjectionExpression");
        if (f.get("names") != null) {
            tableRequest.put("ExpressionAttributeNames", f.get("names"));
        }
        Map<String, Object> requestItems = Map.of(tableName, tableRequest);
        m.hadReads = true;
        for (int attempt = 0; requestItems != null && !requestItems.isEmpty(); attempt++) {
            if (attempt > UNPROCESSED_RETRIES_MAX) {
                throw new ModelError("the endpoint left keys unprocessed " + attempt + " times");
            }
            Map<String, Object> answer = client.call(
                    "BatchGetItem", Map.of("RequestItems", requestItems, "ReturnConsumedCapacity", "INDEXES"));
            m.add(answer.get("ConsumedCapacity"), true);
            Map<String, Object> responses = ModelReader.object(answer.get("Responses"), "Responses", false);
            if (responses != null) {
                for (Object items : responses.values()) {
                    int n = ModelReader.list(items, "Responses", false).size();
                    m.itemsRead += n;
                    m.itemsReturned += n;
                }
            }
            requestItems = ModelReader.object(answer.get("UnprocessedKeys"), "UnprocessedKeys", false);
        }
    }

    private void multiItem(Request step, Measurement m) {
        Map<String, Object> f = step.fields();
        List<Object> items = new ArrayList<>();
        String op = step.operation();
        int actions = 0;
        for (int r = 0; r < repeat(f); r++) {
            for (Object o : ModelReader.list(f.get("actions"), "actions", true)) {
                Map<String, Object> a = ModelReader.object(o, "action", true);
                Request action = new Request(
                        String.valueOf(a.get("operation")),
                        a.get("entity") != null ? (String) a.get("entity") : step.entity(),
                        a);
                items.add(action(op, action, binding(action, r)));
                actions++;
            }
        }
        Map<String, Object> req = new LinkedHashMap<>();
        if (op.equals("BatchWriteItem")) {
            req.put("RequestItems", Map.of(tableName, items));
        } else {
            req.put("TransactItems", items);
        }
        req.put("ReturnConsumedCapacity", "INDEXES");
        Map<String, Object> answer = client.call(op, req);
        boolean reads = op.equals("TransactGetItems");
        m.add(answer.get("ConsumedCapacity"), reads);
        if (reads) {
            m.hadReads = true;
            for (Object o : ModelReader.list(answer.get("Responses"), "Responses", false)) {
                Map<String, Object> r = ModelReader.object(o, "response", true);
                long found = r.get("Item") == null ? 0 : 1;
                m.itemsRead += found;
                m.itemsReturned += found;
            }
        } else {
            m.itemsWritten += actions;
        }
    }

    private Map<String, Object> action(String op, Request a, Map<String, String> binding) {
        Map<String, Object> f = a.fields();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("TableName", tableName);
        if (a.operation().equals("PutItem")) {
            body.put("Item", freshItem(a));
        } else {
            body.put("Key", key(f, binding));
        }
        expressions(f, binding, body);
        if (op.equals("BatchWriteItem")) {
            return a.operation().equals("PutItem")
                    ? Map.of("PutRequest", Map.of("Item", body.get("Item")))
                    : Map.of("DeleteRequest", Map.of("Key", body.get("Key")));
        }
        String member = switch (a.operation()) {
            case "GetItem" -> "Get";
            case "PutItem" -> "Put";
            case "UpdateItem" -> "Update";
            case "DeleteItem" -> "Delete";
            case "ConditionCheck" -> "ConditionCheck";
            default -> throw new ModelError(op + ": an action cannot be " + a.operation());
        };
        return Map.of(member, body);
    }

    /** The fields every single-table request shares, from the step's fields. */
    private Map<String, Object> base(Map<String, Object> f, Map<String, String> binding) {
        Map<String, Object> req = new LinkedHashMap<>();
        req.put("TableName", tableName);
        copy(f, "index", req, "IndexName");
        copy(f, "keyCondition", req, "KeyConditionExpression");
        copy(f, "filter", req, "FilterExpression");
        copy(f, "limit", req, "Limit");
        copy(f, "scanIndexForward", req, "ScanIndexForward");
        copy(f, "consistentRead", req, "ConsistentRead");
        expressions(f, binding, req);
        req.put("ReturnConsumedCapacity", "INDEXES");
        return req;
    }

    private void expressions(Map<String, Object> f, Map<String, String> binding, Map<String, Object> req) {
        copy(f, "projection", req, "ProjectionExpression");
        copy(f, "update", req, "UpdateExpression");
        copy(f, "condition", req, "ConditionExpression");
        if (f.get("names") != null) {
            req.put("ExpressionAttributeNames", f.get("names"));
        }
        Map<String, Object> values = ModelReader.object(f.get("values"), "values", false);
        if (values != null) {
            Map<String, Object> rendered = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : values.entrySet()) {
                rendered.put(e.getKey(), attributeValue(e.getValue(), binding));
            }
            req.put("ExpressionAttributeValues", rendered);
        }
    }

    /** A value as written in the model: a template string is S, a number N, a boolean BOOL, an object as is. */
    private static Object attributeValue(Object v, Map<String, String> binding) {
        if (v instanceof String s) {
            return Map.of("S", KeyTemplate.parse(s).render(binding));
        }
        if (v instanceof Boolean b) {
            return Map.of("BOOL", b);
        }
        if (Json.number(v) != null) {
            return Map.of("N", v instanceof dev.kumiko.server.json.JsonNumber n ? n.text() : v.toString());
        }
        return v;
    }

    private Map<String, Object> key(Map<String, Object> f, Map<String, String> binding) {
        return renderKey(ModelReader.object(f.get("key"), "key", true), binding);
    }

    private Map<String, Object> renderKey(Map<String, Object> key, Map<String, String> binding) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : key.entrySet()) {
            String text = KeyTemplate.parse(String.valueOf(e.getValue())).render(binding);
            out.put(e.getKey(), Map.of(isNumberKey(e.getKey()) ? "N" : "S", text));
        }
        return out;
    }

    private boolean isNumberKey(String attribute) {
        Model.TableSpec t = data.design().table();
        if (t.partitionKey().name().equals(attribute)) {
            return t.partitionKey().type().equals("N");
        }
        return t.sortKey() != null
                && t.sortKey().name().equals(attribute)
                && t.sortKey().type().equals("N");
    }

    private Map<String, Object> freshItem(Request step) {
        SampleData.SampleItem item = data.fresh(step.entity());
        Model.TableSpec t = data.design().table();
        Map<String, Object> key = new LinkedHashMap<>();
        key.put(t.partitionKey().name(), item.item().get(t.partitionKey().name()));
        if (t.sortKey() != null) {
            key.put(t.sortKey().name(), item.item().get(t.sortKey().name()));
        }
        freshKeys.add(key);
        return item.item();
    }

    private Map<String, String> binding(Request step, int partition) {
        return step.entity() == null
                ? Map.of()
                : data.sample(step.entity(), partition).params();
    }

    private static int repeat(Map<String, Object> f) {
        Double r = Json.number(f.get("repeat"));
        return r == null ? 1 : Math.max(1, r.intValue());
    }

    private static void copy(Map<String, Object> from, String field, Map<String, Object> to, String member) {
        if (from.get(field) != null) {
            to.put(member, from.get(field));
        }
    }

    private static long count(Object o) {
        Double d = Json.number(o);
        return d == null ? 0 : d.longValue();
    }
}
