package dev.kumiko.server.policy;

import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.read.ReadRequests;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.expr.ExpressionKind;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The authorization rules of the data plane, read from the decoded request, as DynamoDB asks IAM
 * for them (Service Authorization Reference, "Actions, resources, and condition keys for Amazon
 * DynamoDB", and the Developer Guide's "Using IAM with DynamoDB transactions"):
 * <ul>
 * <li>item operations: the action on the table ARN;</li>
 * <li>Query and Scan: on the index ARN when IndexName is given, else the table ARN;</li>
 * <li>BatchGetItem / BatchWriteItem: the batch action on every table named;</li>
 * <li>TransactWriteItems: PutItem, UpdateItem, DeleteItem or ConditionCheckItem per action, and
 * TransactGetItems: GetItem per action, each on its table, with dynamodb:EnclosingOperation.</li>
 * </ul>
 * A request whose TableName is missing gets no check: the engine rejects it.
 */
public final class ItemChecks {
    private static final String NONE = "NONE";

    private ItemChecks() {}

    public static List<AuthorizationCheck> getItem(ItemRequests.GetItem r, AuthFacts f) {
        if (r.tableName() == null) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        RequestFacts.names(r.key(), names);
        RequestFacts.names(r.attributesToGet(), names);
        RequestFacts.expression(
                r.projectionExpression(), ExpressionKind.PROJECTION, r.expressionAttributeNames(), names);
        Map<String, List<String>> keys = itemKeys(f, r.tableName(), r.key(), names, r.returnConsumedCapacity());
        return List.of(new AuthorizationCheck("GetItem", f.arns().table(r.tableName()), keys));
    }

    public static List<AuthorizationCheck> putItem(ItemRequests.PutItem r, AuthFacts f) {
        return write(
                "PutItem",
                f,
                r.tableName(),
                r.item(),
                null,
                null,
                r.conditions(),
                r.returnValues(),
                r.returnConsumedCapacity());
    }

    public static List<AuthorizationCheck> updateItem(ItemRequests.UpdateItem r, AuthFacts f) {
        return write(
                "UpdateItem",
                f,
                r.tableName(),
                r.key(),
                r.updateExpression(),
                r.attributeUpdates(),
                r.conditions(),
                r.returnValues(),
                r.returnConsumedCapacity());
    }

    public static List<AuthorizationCheck> deleteItem(ItemRequests.DeleteItem r, AuthFacts f) {
        return write(
                "DeleteItem",
                f,
                r.tableName(),
                r.key(),
                null,
                null,
                r.conditions(),
                r.returnValues(),
                r.returnConsumedCapacity());
    }

    private static List<AuthorizationCheck> write(
            String action,
            AuthFacts f,
            @Nullable String table,
            @Nullable Map<String, AttributeValue> keyOrItem,
            @Nullable String update,
            @Nullable Map<String, ?> attributeUpdates,
            ItemRequests.Conditions c,
            @Nullable ReturnValue returnValues,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {
        if (table == null) {
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        RequestFacts.names(keyOrItem, names);
        RequestFacts.names(c.expected(), names);
        RequestFacts.names(attributeUpdates, names);
        RequestFacts.expression(update, ExpressionKind.UPDATE, c.expressionAttributeNames(), names);
        RequestFacts.expression(c.conditionExpression(), ExpressionKind.CONDITION, c.expressionAttributeNames(), names);
        Map<String, List<String>> keys = itemKeys(f, table, keyOrItem, names, returnConsumedCapacity);
        keys.put("dynamodb:ReturnValues", List.of(orNone(returnValues)));
        return List.of(new AuthorizationCheck(action, f.arns().table(table), keys));
    }

    /** LeadingKeys, Attributes and ReturnConsumedCapacity of a single-item request or transaction entry. */
    private static Map<String, List<String>> itemKeys(
            AuthFacts f,
            String table,
            @Nullable Map<String, AttributeValue> key,
            Set<String> names,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        List<String> leading = new ArrayList<>(1);
        RequestFacts.leadingKey(key, f.partitionKey(table, null), leading);
        keys.put("dynamodb:LeadingKeys", leading);
        keys.put("dynamodb:Attributes", List.copyOf(names));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orNone(returnConsumedCapacity)));
        return keys;
    }

    public static List<AuthorizationCheck> query(ReadRequests.Query r, AuthFacts f) {
        ReadRequests.Common c = r.common();
        if (c.tableName() == null) {
            return List.of();
        }
        List<String> leading = new ArrayList<>(1);
        RequestFacts.queryLeadingKeys(
                r.keyConditionExpression(),
                r.keyConditions(),
                c.expressionAttributeNames(),
                c.expressionAttributeValues(),
                f.partitionKey(c.tableName(), c.indexName()),
                leading);
        Set<String> names = new LinkedHashSet<>();
        RequestFacts.names(r.keyConditions(), names);
        RequestFacts.expression(
                r.keyConditionExpression(), ExpressionKind.KEY_CONDITION, c.expressionAttributeNames(), names);
        return read("Query", f, c, leading, names);
    }

    public static List<AuthorizationCheck> scan(ReadRequests.Scan r, AuthFacts f) {
        if (r.common().tableName() == null) {
            return List.of();
        }
        return read("Scan", f, r.common(), null, new LinkedHashSet<>());
    }

    private static List<AuthorizationCheck> read(
            String action, AuthFacts f, ReadRequests.Common c, @Nullable List<String> leading, Set<String> names) {
        RequestFacts.names(c.legacyFilter(), names);
        RequestFacts.names(c.attributesToGet(), names);
        RequestFacts.expression(c.filterExpression(), ExpressionKind.FILTER, c.expressionAttributeNames(), names);
        RequestFacts.expression(
                c.projectionExpression(), ExpressionKind.PROJECTION, c.expressionAttributeNames(), names);
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (leading != null) {
            keys.put("dynamodb:LeadingKeys", leading);
        }
        keys.put("dynamodb:Attributes", List.copyOf(names));
        keys.put("dynamodb:Select", List.of(select(c)));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orNone(c.returnConsumedCapacity())));
        String resource =
                c.indexName() == null ? f.arns().table(c.tableName()) : f.arns().index(c.tableName(), c.indexName());
        return List.of(new AuthorizationCheck(action, resource, keys));
    }

    /**
     * Select as DynamoDB defaults it: SPECIFIC_ATTRIBUTES with a projection, ALL_PROJECTED_ATTRIBUTES
     * on an index, else ALL_ATTRIBUTES ("Select ... always has a value", Developer Guide).
     */
    static String select(ReadRequests.Common c) {
        if (c.select() != null) {
            return c.select().name();
        }
        if (c.projectionExpression() != null || c.attributesToGet() != null) {
            return "SPECIFIC_ATTRIBUTES";
        }
        return c.indexName() != null ? "ALL_PROJECTED_ATTRIBUTES" : "ALL_ATTRIBUTES";
    }

    public static List<AuthorizationCheck> batchGet(BatchRequests.BatchGet r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.requestItems() == null) {
            return out;
        }
        r.requestItems().forEach((table, entry) -> {
            if (entry == null) {
                return;
            }
            List<String> leading = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            RequestFacts.names(entry.attributesToGet(), names);
            RequestFacts.expression(
                    entry.projectionExpression(), ExpressionKind.PROJECTION, entry.expressionAttributeNames(), names);
            if (entry.keys() != null) {
                String pk = f.partitionKey(table, null);
                for (Map<String, AttributeValue> k : entry.keys()) {
                    RequestFacts.leadingKey(k, pk, leading);
                    RequestFacts.names(k, names);
                }
            }
            out.add(batchCheck("BatchGetItem", f, table, leading, names, r.returnConsumedCapacity()));
        });
        return out;
    }

    public static List<AuthorizationCheck> batchWrite(BatchRequests.BatchWrite r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.requestItems() == null) {
            return out;
        }
        r.requestItems().forEach((table, requests) -> {
            if (requests == null) {
                return;
            }
            String pk = f.partitionKey(table, null);
            List<String> leading = new ArrayList<>();
            Set<String> names = new LinkedHashSet<>();
            for (BatchRequests.WriteRequest w : requests) {
                Map<String, AttributeValue> item = w == null ? null : w.put() != null ? w.put() : w.delete();
                RequestFacts.leadingKey(item, pk, leading);
                RequestFacts.names(item, names);
            }
            out.add(batchCheck("BatchWriteItem", f, table, leading, names, r.returnConsumedCapacity()));
        });
        return out;
    }

    private static AuthorizationCheck batchCheck(
            String action,
            AuthFacts f,
            String table,
            List<String> leading,
            Set<String> names,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        keys.put("dynamodb:LeadingKeys", leading);
        keys.put("dynamodb:Attributes", List.copyOf(names));
        keys.put("dynamodb:ReturnConsumedCapacity", List.of(orNone(returnConsumedCapacity)));
        return new AuthorizationCheck(action, f.arns().table(table), keys);
    }

    /** One check per transaction action, named by the action's item-level permission. */
    public static List<AuthorizationCheck> transactWrite(TransactRequests.TransactWrite r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.transactItems() == null) {
            return out;
        }
        for (TransactRequests.WriteAction a : r.transactItems()) {
            if (a == null || a.kind() == null || a.tableName() == null) {
                continue;
            }
            Map<String, AttributeValue> keyOrItem = a.kind() == TransactRequests.Kind.PUT ? a.item() : a.key();
            Set<String> names = new LinkedHashSet<>();
            RequestFacts.names(keyOrItem, names);
            RequestFacts.expression(a.updateExpression(), ExpressionKind.UPDATE, a.expressionAttributeNames(), names);
            RequestFacts.expression(
                    a.conditionExpression(), ExpressionKind.CONDITION, a.expressionAttributeNames(), names);
            out.add(transactCheck(
                    writeAction(a.kind()),
                    f,
                    a.tableName(),
                    keyOrItem,
                    names,
                    r.returnConsumedCapacity(),
                    "TransactWriteItems"));
        }
        return out;
    }

    public static List<AuthorizationCheck> transactGet(TransactRequests.TransactGet r, AuthFacts f) {
        List<AuthorizationCheck> out = new ArrayList<>();
        if (r.transactItems() == null) {
            return out;
        }
        for (TransactRequests.GetAction a : r.transactItems()) {
            if (a == null || !a.given() || a.tableName() == null) {
                continue;
            }
            Set<String> names = new LinkedHashSet<>();
            RequestFacts.names(a.key(), names);
            RequestFacts.expression(
                    a.projectionExpression(), ExpressionKind.PROJECTION, a.expressionAttributeNames(), names);
            out.add(transactCheck(
                    "GetItem", f, a.tableName(), a.key(), names, r.returnConsumedCapacity(), "TransactGetItems"));
        }
        return out;
    }

    private static AuthorizationCheck transactCheck(
            String action,
            AuthFacts f,
            String table,
            @Nullable Map<String, AttributeValue> key,
            Set<String> names,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            String enclosing) {
        Map<String, List<String>> keys = itemKeys(f, table, key, names, returnConsumedCapacity);
        keys.put("dynamodb:EnclosingOperation", List.of(enclosing));
        return new AuthorizationCheck(action, f.arns().table(table), keys);
    }

    private static String writeAction(TransactRequests.Kind kind) {
        return switch (kind) {
            case PUT -> "PutItem";
            case UPDATE -> "UpdateItem";
            case DELETE -> "DeleteItem";
            case CONDITION_CHECK -> "ConditionCheckItem";
        };
    }

    /** The member's wire name, or NONE when absent (the condition keys always have a value). */
    private static String orNone(@Nullable Enum<?> given) {
        return given != null ? given.name() : NONE;
    }
}
