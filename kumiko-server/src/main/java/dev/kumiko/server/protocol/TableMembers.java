package dev.kumiko.server.protocol;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.SseType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.model.TableClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The API model's member constraints of CreateTable and UpdateTable (and of the table members of
 * ImportTable and the restores), checked on the body as sent: every violation in one "N validation
 * errors detected: ..." message, in the order DynamoDB's front end lists them, which is the order
 * of the checks here. The body has been decoded already, so every member has its JSON type (a JSON
 * null reads as absent, as the decoder reads it). Where a member is tested with
 * {@code c.notNull(path, x) && x != null}, the second test repeats the first's answer for the
 * nullness checker, which cannot see into the engine's Constraints.
 */
final class TableMembers {
    /** An attribute, index or key attribute name: 1 to 255 characters. */
    private static final int NAME_CHARS_MAX = 255;
    /** UpdateTable's TableName may also be an ARN: 1 to 1024 characters. */
    private static final int TABLE_NAME_OR_ARN_CHARS_MAX = 1024;
    /** A table's key schema: a HASH and an optional RANGE element. */
    private static final int TABLE_KEY_ELEMENTS_MAX = 2;
    /** Four partition-key and four sort-key attributes: DynamoDB's multi-attribute GSI keys. */
    static final int GSI_KEY_ELEMENTS_MAX = 2 * IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX;

    private static final int TAG_KEY_CHARS_MAX = 128;
    private static final int TAG_VALUE_CHARS_MAX = 256;

    private TableMembers() {}

    static void createTable(Map<String, Object> b) {
        Constraints c = new Constraints();
        List<Map<String, Object>> definitions = Fields.objects(b, "AttributeDefinitions", m -> m);
        if (c.notNull("attributeDefinitions", definitions) && definitions != null) {
            definitions(c, definitions);
        }
        if (c.notNull("tableName", Fields.string(b, "TableName"))) {
            c.tableName("tableName", Fields.string(b, "TableName"));
        }
        List<Map<String, Object>> keySchema = Fields.objects(b, "KeySchema", m -> m);
        if (c.notNull("keySchema", keySchema) && keySchema != null) {
            keySchema(c, "keySchema", keySchema, TABLE_KEY_ELEMENTS_MAX);
        }
        indexes(c, "localSecondaryIndexes", Fields.objects(b, "LocalSecondaryIndexes", m -> m), TABLE_KEY_ELEMENTS_MAX);
        indexes(c, "globalSecondaryIndexes", Fields.objects(b, "GlobalSecondaryIndexes", m -> m), GSI_KEY_ELEMENTS_MAX);
        WireEnums.check(c, "billingMode", Fields.string(b, "BillingMode"), BillingMode.class);
        throughput(c, "provisionedThroughput", Fields.object(b, "ProvisionedThroughput"));
        stream(c, Fields.object(b, "StreamSpecification"));
        Map<String, Object> sse = Fields.object(b, "SSESpecification");
        if (sse != null) {
            WireEnums.check(c, "sSESpecification.sSEType", Fields.string(sse, "SSEType"), SseType.class);
        }
        tags(c, Fields.objects(b, "Tags", m -> m));
        WireEnums.check(c, "tableClass", Fields.string(b, "TableClass"), TableClass.class);
        c.throwIfAny();
    }

    static void updateTable(Map<String, Object> b) {
        Constraints c = new Constraints();
        if (c.notNull("tableName", Fields.string(b, "TableName"))) {
            c.length("tableName", Fields.string(b, "TableName"), 1, TABLE_NAME_OR_ARN_CHARS_MAX);
        }
        WireEnums.check(c, "billingMode", Fields.string(b, "BillingMode"), BillingMode.class);
        throughput(c, "provisionedThroughput", Fields.object(b, "ProvisionedThroughput"));
        stream(c, Fields.object(b, "StreamSpecification"));
        WireEnums.check(c, "tableClass", Fields.string(b, "TableClass"), TableClass.class);
        List<Map<String, Object>> definitions = Fields.objects(b, "AttributeDefinitions", m -> m);
        if (definitions != null) {
            definitions(c, definitions);
        }
        gsiUpdates(c, Fields.objects(b, "GlobalSecondaryIndexUpdates", m -> m));
        c.throwIfAny();
    }

    /**
     * A restore's overrides (RestoreTableFromBackup, RestoreTableToPointInTime): the members after
     * the ones the engine checks (names, ARNs), so they are checked here alone.
     */
    static void restoreOverrides(Map<String, Object> b) {
        Constraints c = new Constraints();
        WireEnums.check(c, "billingModeOverride", Fields.string(b, "BillingModeOverride"), BillingMode.class);
        indexes(
                c,
                "globalSecondaryIndexOverride",
                Fields.objects(b, "GlobalSecondaryIndexOverride", m -> m),
                GSI_KEY_ELEMENTS_MAX);
        indexes(
                c,
                "localSecondaryIndexOverride",
                Fields.objects(b, "LocalSecondaryIndexOverride", m -> m),
                TABLE_KEY_ELEMENTS_MAX);
        throughput(c, "provisionedThroughputOverride", Fields.object(b, "ProvisionedThroughputOverride"));
        Map<String, Object> sse = Fields.object(b, "SSESpecificationOverride");
        if (sse != null) {
            WireEnums.check(c, "sSESpecificationOverride.sSEType", Fields.string(sse, "SSEType"), SseType.class);
        }
        c.throwIfAny();
    }

    private static void definitions(Constraints c, List<Map<String, Object>> definitions) {
        for (int i = 0; i < definitions.size(); i++) {
            Map<String, Object> d = definitions.get(i);
            String p = "attributeDefinitions." + (i + 1) + ".member.";
            name(c, p + "attributeName", Fields.string(d, "AttributeName"));
            String type = Fields.string(d, "AttributeType");
            if (c.notNull(p + "attributeType", type)) {
                WireEnums.check(c, p + "attributeType", type, ScalarAttributeType.class);
            }
        }
    }

    private static void name(Constraints c, String path, @Nullable String value) {
        if (c.notNull(path, value)) {
            c.length(path, value, 1, NAME_CHARS_MAX);
        }
    }

    /** A key schema of at most {@code max} elements; GSIs may have multi-attribute keys. */
    private static void keySchema(Constraints c, String path, List<Map<String, Object>> keySchema, int max) {
        c.size(path, keySchema, rendered(keySchema), 1, max);
        for (int i = 0; i < keySchema.size(); i++) {
            Map<String, Object> k = keySchema.get(i);
            String p = path + "." + (i + 1) + ".member.";
            name(c, p + "attributeName", Fields.string(k, "AttributeName"));
            String keyType = Fields.string(k, "KeyType");
            if (c.notNull(p + "keyType", keyType)) {
                WireEnums.check(c, p + "keyType", keyType, KeyType.class);
            }
        }
    }

    /** A key schema as DynamoDB echoes it in a constraint message (the SDK model's toString). */
    private static String rendered(List<Map<String, Object>> keySchema) {
        List<String> out = new ArrayList<>(keySchema.size());
        for (Map<String, Object> k : keySchema) {
            out.add("KeySchemaElement(attributeName=" + Fields.string(k, "AttributeName") + ", keyType="
                    + Fields.string(k, "KeyType") + ")");
        }
        return out.toString();
    }

    private static void indexes(
            Constraints c, String path, @Nullable List<Map<String, Object>> indexes, int keyElementsMax) {
        if (indexes == null) {
            return;
        }
        for (int i = 0; i < indexes.size(); i++) {
            index(c, path + "." + (i + 1) + ".member.", indexes.get(i), keyElementsMax);
        }
    }

    /** One index's members; {@code p} is its path with a trailing dot. */
    private static void index(Constraints c, String p, Map<String, Object> x, int keyElementsMax) {
        String indexName = Fields.string(x, "IndexName");
        if (c.notNull(p + "indexName", indexName)) {
            c.tableName(p + "indexName", indexName);
        }
        List<Map<String, Object>> keySchema = Fields.objects(x, "KeySchema", m -> m);
        if (c.notNull(p + "keySchema", keySchema) && keySchema != null) {
            keySchema(c, p + "keySchema", keySchema, keyElementsMax);
        }
        Map<String, Object> projection = Fields.object(x, "Projection");
        if (c.notNull(p + "projection", projection) && projection != null) {
            WireEnums.check(
                    c,
                    p + "projection.projectionType",
                    Fields.string(projection, "ProjectionType"),
                    ProjectionType.class);
            nonKeyAttributes(c, p + "projection.nonKeyAttributes", Fields.strings(projection, "NonKeyAttributes"));
        }
        throughput(c, p + "provisionedThroughput", Fields.object(x, "ProvisionedThroughput"));
    }

    /**
     * NonKeyAttributes names are 1-255 characters (the API Reference). A list member's violation is
     * reported on the list, in the model's nested form. UNVERIFIED wording.
     */
    private static void nonKeyAttributes(Constraints c, String path, @Nullable List<String> names) {
        if (names == null) {
            return;
        }
        for (String n : names) {
            if (n != null && (n.isEmpty() || n.length() > NAME_CHARS_MAX)) {
                c.fail(
                        path,
                        names.toString(),
                        "Member must satisfy constraint: [Member must have length less than " + "or equal to "
                                + NAME_CHARS_MAX + ", Member must have length greater than or equal to 1]");
                return;
            }
        }
    }

    private static void throughput(Constraints c, String path, @Nullable Map<String, Object> t) {
        if (t == null) {
            return;
        }
        Long write = Fields.longValue(t, "WriteCapacityUnits");
        if (c.notNull(path + ".writeCapacityUnits", write)) {
            c.range(path + ".writeCapacityUnits", write, 1, Long.MAX_VALUE);
        }
        Long read = Fields.longValue(t, "ReadCapacityUnits");
        if (c.notNull(path + ".readCapacityUnits", read)) {
            c.range(path + ".readCapacityUnits", read, 1, Long.MAX_VALUE);
        }
    }

    private static void stream(Constraints c, @Nullable Map<String, Object> s) {
        if (s == null) {
            return;
        }
        c.notNull("streamSpecification.streamEnabled", Fields.bool(s, "StreamEnabled"));
        WireEnums.check(
                c, "streamSpecification.streamViewType", Fields.string(s, "StreamViewType"), StreamViewType.class);
    }

    private static void tags(Constraints c, @Nullable List<Map<String, Object>> tags) {
        if (tags == null) {
            return;
        }
        for (int i = 0; i < tags.size(); i++) {
            String p = "tags." + (i + 1) + ".member.";
            String key = Fields.string(tags.get(i), "Key");
            if (c.notNull(p + "key", key)) {
                c.length(p + "key", key, 1, TAG_KEY_CHARS_MAX);
            }
            String value = Fields.string(tags.get(i), "Value");
            if (c.notNull(p + "value", value)) {
                c.length(p + "value", value, 0, TAG_VALUE_CHARS_MAX);
            }
        }
    }

    private static void gsiUpdates(Constraints c, @Nullable List<Map<String, Object>> updates) {
        if (updates == null) {
            return;
        }
        for (int i = 0; i < updates.size(); i++) {
            Map<String, Object> u = updates.get(i);
            String p = "globalSecondaryIndexUpdates." + (i + 1) + ".member.";
            Map<String, Object> create = Fields.object(u, "Create");
            if (create != null) {
                index(c, p + "create.", create, GSI_KEY_ELEMENTS_MAX);
            }
            Map<String, Object> update = Fields.object(u, "Update");
            if (update != null && c.notNull(p + "update.indexName", Fields.string(update, "IndexName"))) {
                c.tableName(p + "update.indexName", Fields.string(update, "IndexName"));
                throughput(c, p + "update.provisionedThroughput", Fields.object(update, "ProvisionedThroughput"));
            }
            Map<String, Object> delete = Fields.object(u, "Delete");
            if (delete != null && c.notNull(p + "delete.indexName", Fields.string(delete, "IndexName"))) {
                c.tableName(p + "delete.indexName", Fields.string(delete, "IndexName"));
            }
        }
    }
}
