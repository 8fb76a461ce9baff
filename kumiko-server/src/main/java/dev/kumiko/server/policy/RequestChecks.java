package dev.kumiko.server.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The permissions one request needs, as DynamoDB asks IAM for them (Service Authorization
 * Reference, "Actions, resources, and condition keys for Amazon DynamoDB", and the Developer
 * Guide's "Using IAM with DynamoDB transactions"):
 * <ul>
 * <li>item operations: the action on the table ARN;</li>
 * <li>Query and Scan: on the index ARN when IndexName is given, else the table ARN;</li>
 * <li>BatchGetItem / BatchWriteItem: the batch action on every table named;</li>
 * <li>TransactWriteItems: PutItem, UpdateItem, DeleteItem or ConditionCheckItem per action, and
 * TransactGetItems: GetItem per action, each on its table, with dynamodb:EnclosingOperation;</li>
 * <li>PartiQL: PartiQLSelect / PartiQLInsert / PartiQLUpdate / PartiQLDelete per statement, on the
 * table ARN, or the index ARN for a SELECT on "table"."index";</li>
 * <li>Streams: DescribeStream, GetShardIterator, GetRecords on the stream ARN; ListStreams on "*";</li>
 * <li>account-level operations (ListTables, DescribeLimits, ...) on "*", tagging on ResourceArn,
 * everything else on the TableName's table.</li>
 * </ul>
 * A request whose members are missing or mis-typed gets no check for them: the engine rejects it.
 */
final class RequestChecks {
    private static final Set<String> ACCOUNT_LEVEL = Set.of("ListTables", "DescribeLimits", "DescribeEndpoints",
            "ListBackups", "ListGlobalTables", "ListExports", "ListImports", "ListContributorInsights",
            "DescribeReservedCapacity", "DescribeReservedCapacityOfferings");
    private static final Set<String> RESOURCE_ARN_OPERATIONS = Set.of("TagResource", "UntagResource",
            "ListTagsOfResource", "GetResourcePolicy", "PutResourcePolicy", "DeleteResourcePolicy");
    private static final String NONE = "NONE";

    private final ResourceArns arns;
    private final KeySchemas schemas;

    RequestChecks(ResourceArns arns, KeySchemas schemas) {
        this.arns = arns;
        this.schemas = schemas;
    }

    List<AuthorizationCheck> of(String operation, boolean streams, Map<String, Object> body) {
        if (streams) {
            return streamChecks(operation, body);
        }
        switch (operation) {
            case "GetItem": return item(operation, body, "Key", false);
            case "PutItem": return item(operation, body, "Item", true);
            case "UpdateItem": case "DeleteItem": return item(operation, body, "Key", true);
            case "Query": case "Scan": return read(operation, body);
            case "BatchGetItem": return batchGet(body);
            case "BatchWriteItem": return batchWrite(body);
            case "TransactWriteItems": return transact(body, "TransactWriteItems");
            case "TransactGetItems": return transact(body, "TransactGetItems");
            case "ExecuteStatement": case "BatchExecuteStatement": case "ExecuteTransaction":
                return PartiqlChecks.of(arns, schemas, operation, body);
            default: return control(operation, body);
        }
    }

    private List<AuthorizationCheck> item(String action, Map<String, Object> body, String keyMember, boolean write) {
        String table = string(body, "TableName");
        if (table == null) {
            return List.of();
        }
        Map<String, List<String>> keys = itemKeys(body, table, keyMember);
        if (write) {
            keys.put("dynamodb:ReturnValues", List.of(orDefault(body, "ReturnValues", NONE)));
        }
        return List.of(new AuthorizationCheck(action, arns.table(table), keys));
    }

    /** LeadingKeys, Attributes and ReturnConsumedCapacity of a single-item request or transaction entry. */
    private Map<String, List<String>> itemKeys(Map<String, Object> body, String table, String keyMember) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        List<String> leading = new ArrayList<>(1);
        RequestFacts.leadingKey(body.get(keyMember), partitionKey(table, null), leading);
        keys.put("dynamodb:LeadingKeys", leading);
        keys.put("dynamodb:Attributes", attributes(body));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orDefault(body, "ReturnConsumedCapacity", NONE)));
        return keys;
    }

    private List<AuthorizationCheck> read(String action, Map<String, Object> body) {
        String table = string(body, "TableName");
        if (table == null) {
            return List.of();
        }
        String index = string(body, "IndexName");
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (action.equals("Query")) {
            List<String> leading = new ArrayList<>(1);
            RequestFacts.queryLeadingKeys(body, partitionKey(table, index), leading);
            keys.put("dynamodb:LeadingKeys", leading);
        }
        keys.put("dynamodb:Attributes", attributes(body));
        keys.put("dynamodb:Select", List.of(select(body, index)));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orDefault(body, "ReturnConsumedCapacity", NONE)));
        String resource = index == null ? arns.table(table) : arns.index(table, index);
        return List.of(new AuthorizationCheck(action, resource, keys));
    }

    /**
     * Select as DynamoDB defaults it: SPECIFIC_ATTRIBUTES with a projection, ALL_PROJECTED_ATTRIBUTES
     * on an index, else ALL_ATTRIBUTES ("Select ... always has a value", Developer Guide).
     */
    static String select(Map<String, Object> body, String index) {
        String given = string(body, "Select");
        if (given != null) {
            return given;
        }
        if (body.get("ProjectionExpression") != null || body.get("AttributesToGet") != null) {
            return "SPECIFIC_ATTRIBUTES";
        }
        return index != null ? "ALL_PROJECTED_ATTRIBUTES" : "ALL_ATTRIBUTES";
    }

    private List<AuthorizationCheck> batchGet(Map<String, Object> body) {
        List<AuthorizationCheck> out = new ArrayList<>();
        forEachTable(body, (table, entry) -> {
            if (!(entry instanceof Map<?, ?> raw)) {
                return;
            }
            Map<String, Object> keysAndAttributes = cast(raw);
            List<String> leading = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            RequestFacts.attributes(keysAndAttributes, names);
            if (keysAndAttributes.get("Keys") instanceof List<?> itemKeys) {
                String pk = partitionKey(table, null);
                for (Object k : itemKeys) {
                    RequestFacts.leadingKey(k, pk, leading);
                    keyNames(k, names);
                }
            }
            out.add(batchCheck("BatchGetItem", table, leading, names, body));
        });
        return out;
    }

    private List<AuthorizationCheck> batchWrite(Map<String, Object> body) {
        List<AuthorizationCheck> out = new ArrayList<>();
        forEachTable(body, (table, entry) -> {
            if (!(entry instanceof List<?> requests)) {
                return;
            }
            String pk = partitionKey(table, null);
            List<String> leading = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            for (Object r : requests) {
                Object item = r instanceof Map<?, ?> w
                        ? (w.get("PutRequest") instanceof Map<?, ?> put ? put.get("Item")
                        : w.get("DeleteRequest") instanceof Map<?, ?> delete ? delete.get("Key") : null) : null;
                RequestFacts.leadingKey(item, pk, leading);
                keyNames(item, names);
            }
            out.add(batchCheck("BatchWriteItem", table, leading, names, body));
        });
        return out;
    }

    private AuthorizationCheck batchCheck(String action, String table, List<String> leading, Set<String> names,
            Map<String, Object> body) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        keys.put("dynamodb:LeadingKeys", leading);
        keys.put("dynamodb:Attributes", List.copyOf(names));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orDefault(body, "ReturnConsumedCapacity", NONE)));
        return new AuthorizationCheck(action, arns.table(table), keys);
    }

    /** One check per transaction action, named by the action's item-level permission. */
    private List<AuthorizationCheck> transact(Map<String, Object> body, String enclosing) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (!(body.get("TransactItems") instanceof List<?> items)) {
            return out;
        }
        for (Object o : items) {
            if (!(o instanceof Map<?, ?> wrapper)) {
                continue;
            }
            for (Map.Entry<?, ?> e : wrapper.entrySet()) {
                String action = transactAction((String) e.getKey());
                if (action == null || !(e.getValue() instanceof Map<?, ?> raw)) {
                    continue;
                }
                Map<String, Object> entry = cast(raw);
                String table = string(entry, "TableName");
                if (table == null) {
                    continue;
                }
                Map<String, List<String>> keys = itemKeys(entry, table, action.equals("PutItem") ? "Item" : "Key");
                keys.put("dynamodb:ReturnConsumedCapacity", List.of(orDefault(body, "ReturnConsumedCapacity", NONE)));
                keys.put("dynamodb:EnclosingOperation", List.of(enclosing));
                out.add(new AuthorizationCheck(action, arns.table(table), keys));
            }
        }
        return out;
    }

    private static String transactAction(String member) {
        switch (member) {
            case "Put": return "PutItem";
            case "Update": return "UpdateItem";
            case "Delete": return "DeleteItem";
            case "ConditionCheck": return "ConditionCheckItem";
            case "Get": return "GetItem";
            default: return null;
        }
    }

    private List<AuthorizationCheck> streamChecks(String operation, Map<String, Object> body) {
        String arn = string(body, "StreamArn");
        if (operation.equals("GetRecords")) {
            String iterator = string(body, "ShardIterator");
            // Kumiko's iterators, like DynamoDB's, start with the stream ARN: "<streamArn>|1|<payload>".
            int bar = iterator == null ? -1 : iterator.indexOf('|');
            arn = bar > 0 ? iterator.substring(0, bar) : null;
        }
        String resource = arn == null ? ResourceArns.ANY : arns.rebase(arn);
        return List.of(new AuthorizationCheck(operation, resource, Map.of()));
    }

    private List<AuthorizationCheck> control(String operation, Map<String, Object> body) {
        if (ACCOUNT_LEVEL.contains(operation)) {
            return List.of(new AuthorizationCheck(operation, ResourceArns.ANY, Map.of()));
        }
        if (RESOURCE_ARN_OPERATIONS.contains(operation)) {
            String arn = string(body, "ResourceArn");
            return List.of(new AuthorizationCheck(operation, arn == null ? ResourceArns.ANY : arns.rebase(arn),
                    Map.of()));
        }
        String table = string(body, "TableName");
        return List.of(new AuthorizationCheck(operation, table == null ? ResourceArns.ANY : arns.table(table),
                Map.of()));
    }

    private String partitionKey(String tableNameOrArn, String index) {
        String name = ResourceArns.tableName(tableNameOrArn);
        return name == null ? null : schemas.partitionKey(name, index);
    }

    private static List<String> attributes(Map<String, Object> body) {
        Set<String> names = new LinkedHashSet<>();
        RequestFacts.attributes(body, names);
        return List.copyOf(names);
    }

    private static void keyNames(Object item, Set<String> out) {
        if (item instanceof Map<?, ?> m) {
            for (Object k : m.keySet()) {
                out.add((String) k);
            }
        }
    }

    private static void forEachTable(Map<String, Object> body, java.util.function.BiConsumer<String, Object> fn) {
        if (body.get("RequestItems") instanceof Map<?, ?> byTable) {
            byTable.forEach((table, entry) -> fn.accept((String) table, entry));
        }
    }

    private static String string(Map<String, Object> body, String member) {
        return body.get(member) instanceof String s ? s : null;
    }

    private static String orDefault(Map<String, Object> body, String member, String fallback) {
        String s = string(body, member);
        return s != null ? s : fallback;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> raw) {
        return (Map<String, Object>) raw;
    }
}
