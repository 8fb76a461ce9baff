package dev.kumiko.engine.control;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.Enums;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * CreateTable's checks in DynamoDB's order: the model's member constraints first (all reported
 * together), then the key schema, attribute definitions, billing, indexes and stream, each
 * failing alone with DynamoDB's message.
 */
final class CreateTableValidator {
    static final int LOCAL_INDEXES_MAX = 5;
    static final int GLOBAL_INDEXES_MAX = 20;
    /** Projected non-key attributes summed over all indexes of a table. */
    static final int PROJECTED_ATTRIBUTES_MAX = 100;
    static final long CAPACITY_UNITS_MAX = 40_000;
    /** Four partition-key and four sort-key attributes: DynamoDB's multi-attribute GSI keys. */
    static final int GSI_KEY_ELEMENTS_MAX = 2 * IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX;

    private CreateTableValidator() {}

    /**
     * Member constraints, then every key schema (the table's and its indexes'), then throughput:
     * DynamoDB judges the keys before the capacity, so a table with a bad index key and no
     * throughput is told about the key.
     */
    static void validate(CreateTableRequest r) {
        checkConstraints(r);
        checkKeySchema(r.keySchema(), "KeySchema");
        checkDefinitions(r);
        checkLocalIndexes(r);
        checkGlobalIndexes(r);
        checkBilling(r);
        checkStream(r.streamSpecification());
    }

    static void checkConstraints(CreateTableRequest r) {
        Constraints c = new Constraints();
        if (c.notNull("attributeDefinitions", r.attributeDefinitions())) {
            checkDefinitionMembers(c, r.attributeDefinitions());
        }
        if (c.notNull("tableName", r.tableName())) {
            c.tableName("tableName", r.tableName());
        }
        if (c.notNull("keySchema", r.keySchema())) {
            checkKeySchemaMembers(c, "keySchema", r.keySchema());
        }
        checkIndexMembers(c, "localSecondaryIndexes", r.localSecondaryIndexes(), 2);
        checkIndexMembers(c, "globalSecondaryIndexes", r.globalSecondaryIndexes(), GSI_KEY_ELEMENTS_MAX);
        c.enumValue("billingMode", r.billingMode(), Enums.BILLING_MODE);
        checkThroughputMembers(c, "provisionedThroughput", r.provisionedThroughput());
        if (r.streamSpecification() != null) {
            c.notNull("streamSpecification.streamEnabled", r.streamSpecification().streamEnabled());
            c.enumValue("streamSpecification.streamViewType", r.streamSpecification().streamViewType(),
                    Enums.STREAM_VIEW_TYPE);
        }
        if (r.sseSpecification() != null) {
            c.enumValue("sSESpecification.sSEType", r.sseSpecification().sseType(), Enums.SSE_TYPE);
        }
        TagRules.checkMembers(c, "tags", r.tags());
        c.enumValue("tableClass", r.tableClass(), Enums.TABLE_CLASS);
        c.throwIfAny();
    }

    static void checkDefinitionMembers(Constraints c, List<AttributeDefinitionInput> definitions) {
        for (int i = 0; i < definitions.size(); i++) {
            AttributeDefinitionInput d = definitions.get(i);
            String p = "attributeDefinitions." + (i + 1) + ".member.";
            if (d == null) {
                continue;
            }
            if (c.notNull(p + "attributeName", d.attributeName())) {
                c.length(p + "attributeName", d.attributeName(), 1, 255);
            }
            if (c.notNull(p + "attributeType", d.attributeType())) {
                c.enumValue(p + "attributeType", d.attributeType(), Enums.SCALAR_ATTRIBUTE_TYPE);
            }
        }
    }

    static void checkKeySchemaMembers(Constraints c, String path, List<KeySchemaInput> keySchema) {
        checkKeySchemaMembers(c, path, keySchema, 2);
    }

    /** GSI key schemas may hold up to four HASH and four RANGE elements (multi-attribute keys). */
    static void checkKeySchemaMembers(Constraints c, String path, List<KeySchemaInput> keySchema, int max) {
        c.size(path, keySchema, keySchema.toString(), 1, max);
        for (int i = 0; i < keySchema.size(); i++) {
            KeySchemaInput k = keySchema.get(i);
            String p = path + "." + (i + 1) + ".member.";
            if (c.notNull(p + "attributeName", k.attributeName())) {
                c.length(p + "attributeName", k.attributeName(), 1, 255);
            }
            if (c.notNull(p + "keyType", k.keyType())) {
                c.enumValue(p + "keyType", k.keyType(), Enums.KEY_TYPE);
            }
        }
    }

    /** The API Reference's length limit of a NonKeyAttributes name. */
    static final int NON_KEY_ATTRIBUTE_NAME_CHARS_MAX = 255;

    static void checkIndexMembers(Constraints c, String path, List<IndexInput> indexes, int keyElementsMax) {
        if (indexes == null) {
            return;
        }
        for (int i = 0; i < indexes.size(); i++) {
            checkIndexMember(c, path + "." + (i + 1) + ".member.", indexes.get(i), keyElementsMax);
        }
    }

    /** One index's members; {@code p} is its path with a trailing dot. */
    static void checkIndexMember(Constraints c, String p, IndexInput x, int keyElementsMax) {
        if (c.notNull(p + "indexName", x.indexName())) {
            c.tableName(p + "indexName", x.indexName());
        }
        if (c.notNull(p + "keySchema", x.keySchema())) {
            checkKeySchemaMembers(c, p + "keySchema", x.keySchema(), keyElementsMax);
        }
        if (c.notNull(p + "projection", x.projection())) {
            c.enumValue(p + "projection.projectionType", x.projection().projectionType(), Enums.PROJECTION_TYPE);
            checkNonKeyAttributeNames(c, p + "projection.nonKeyAttributes", x.projection().nonKeyAttributes());
        }
        checkThroughputMembers(c, p + "provisionedThroughput", x.provisionedThroughput());
    }

    /**
     * NonKeyAttributes names are 1-255 characters (the API Reference). A list member's violation is
     * reported on the list, in the model's nested form. UNVERIFIED wording.
     */
    private static void checkNonKeyAttributeNames(Constraints c, String path, List<String> names) {
        if (names == null) {
            return;
        }
        for (String n : names) {
            if (n != null && (n.isEmpty() || n.length() > NON_KEY_ATTRIBUTE_NAME_CHARS_MAX)) {
                c.fail(path, names.toString(), "Member must satisfy constraint: [Member must have length less than "
                        + "or equal to " + NON_KEY_ATTRIBUTE_NAME_CHARS_MAX
                        + ", Member must have length greater than or equal to 1]");
                return;
            }
        }
    }

    static void checkThroughputMembers(Constraints c, String path, ThroughputInput t) {
        if (t == null) {
            return;
        }
        if (c.notNull(path + ".writeCapacityUnits", t.writeCapacityUnits())) {
            c.range(path + ".writeCapacityUnits", t.writeCapacityUnits(), 1, Long.MAX_VALUE);
        }
        if (c.notNull(path + ".readCapacityUnits", t.readCapacityUnits())) {
            c.range(path + ".readCapacityUnits", t.readCapacityUnits(), 1, Long.MAX_VALUE);
        }
    }

    static void checkKeySchema(List<KeySchemaInput> keySchema, String what) {
        if (!"HASH".equals(keySchema.get(0).keyType())) {
            throw DynamoException.validation("Invalid " + what + ": The first KeySchemaElement is not a HASH key type");
        }
        if (keySchema.size() == 2) {
            if (!"RANGE".equals(keySchema.get(1).keyType())) {
                throw DynamoException.validation(
                        "Invalid " + what + ": The second KeySchemaElement is not a RANGE key type");
            }
            if (keySchema.get(0).attributeName().equals(keySchema.get(1).attributeName())) {
                throw DynamoException.validation("Invalid " + what
                        + ": Both the Hash Key and the Range Key element in the KeySchema have the same name");
            }
        }
    }

    private static void checkDefinitions(CreateTableRequest r) {
        Set<String> defined = new LinkedHashSet<>();
        for (AttributeDefinitionInput d : r.attributeDefinitions()) {
            if (!defined.add(d.attributeName())) {
                throw DynamoException.invalidParameter("Duplicate AttributeDefinition found: " + d.attributeName());
            }
        }
        for (KeySchemaInput k : r.keySchema()) {
            if (!defined.contains(k.attributeName())) {
                throw DynamoException.validation("Invalid KeySchema: Some index key attribute have no definition");
            }
        }
        Set<String> used = new LinkedHashSet<>();
        r.keySchema().forEach(k -> used.add(k.attributeName()));
        boolean hasIndexes = false;
        for (List<IndexInput> list : indexLists(r)) {
            for (IndexInput x : list) {
                hasIndexes = true;
                for (KeySchemaInput k : x.keySchema()) {
                    if (!defined.contains(k.attributeName())) {
                        throw DynamoException.invalidParameter(
                                "Some index key attributes are not defined in AttributeDefinitions. Keys: "
                                        + names(x.keySchema()) + ", AttributeDefinitions: " + List.copyOf(defined));
                    }
                    used.add(k.attributeName());
                }
            }
        }
        if (used.size() != defined.size()) {
            if (!hasIndexes) {
                throw DynamoException.invalidParameter("Number of attributes in KeySchema does not exactly match "
                        + "number of attributes defined in AttributeDefinitions");
            }
            throw DynamoException.invalidParameter("Some AttributeDefinitions are not used. AttributeDefinitions: "
                    + List.copyOf(defined) + ", keys used: " + List.copyOf(used));
        }
    }

    private static List<String> names(List<KeySchemaInput> keySchema) {
        List<String> out = new ArrayList<>(keySchema.size());
        keySchema.forEach(k -> out.add(k.attributeName()));
        return out;
    }

    private static List<List<IndexInput>> indexLists(CreateTableRequest r) {
        List<List<IndexInput>> lists = new ArrayList<>(2);
        if (r.localSecondaryIndexes() != null) {
            lists.add(r.localSecondaryIndexes());
        }
        if (r.globalSecondaryIndexes() != null) {
            lists.add(r.globalSecondaryIndexes());
        }
        return lists;
    }

    static boolean isOnDemand(String billingMode) {
        return "PAY_PER_REQUEST".equals(billingMode);
    }

    private static void checkBilling(CreateTableRequest r) {
        if (isOnDemand(r.billingMode())) {
            if (r.provisionedThroughput() != null) {
                throw DynamoException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits can be "
                        + "specified when BillingMode is PAY_PER_REQUEST");
            }
            if (r.globalSecondaryIndexes() != null) {
                for (IndexInput x : r.globalSecondaryIndexes()) {
                    if (x.provisionedThroughput() != null) {
                        throw DynamoException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits "
                                + "can be specified for index: " + x.indexName() + " when BillingMode is PAY_PER_REQUEST");
                    }
                }
            }
            return;
        }
        if (r.provisionedThroughput() == null) {
            throw DynamoException.validation("No provisioned throughput specified for the table");
        }
        checkThroughputLimit(r.provisionedThroughput());
        if (r.globalSecondaryIndexes() != null) {
            for (IndexInput x : r.globalSecondaryIndexes()) {
                if (x.provisionedThroughput() == null) {
                    // UNVERIFIED wording: DynamoDB's text for a provisioned table's GSI without throughput.
                    throw DynamoException.validation(
                            "No provisioned throughput specified for the global secondary index");
                }
                checkThroughputLimit(x.provisionedThroughput());
            }
        }
    }

    static void checkThroughputLimit(ThroughputInput t) {
        if (t.readCapacityUnits() > CAPACITY_UNITS_MAX || t.writeCapacityUnits() > CAPACITY_UNITS_MAX) {
            throw new DynamoException(ErrorCode.LIMIT_EXCEEDED, "Subscriber limit exceeded: Provisioned throughput "
                    + "for the table exceeds the account limit; read units: " + CAPACITY_UNITS_MAX
                    + ", write units: " + CAPACITY_UNITS_MAX);
        }
    }

    private static void checkLocalIndexes(CreateTableRequest r) {
        List<IndexInput> lsis = r.localSecondaryIndexes();
        if (lsis == null) {
            return;
        }
        if (r.keySchema().size() < 2) {
            throw DynamoException.invalidParameter("Table KeySchema does not have a range key, which is required "
                    + "when specifying a LocalSecondaryIndex");
        }
        if (lsis.isEmpty()) {
            throw DynamoException.invalidParameter("List of LocalSecondaryIndexes is empty");
        }
        if (lsis.size() > LOCAL_INDEXES_MAX) {
            // No "One or more parameter values were invalid" prefix: the only observed text (DynamoDB
            // Local, which mirrors the service's messages) is bare. Real-service capture still wanted.
            throw DynamoException.validation(
                    "Cannot have more than " + LOCAL_INDEXES_MAX + " local secondary indexes per table");
        }
        Set<String> seen = new HashSet<>();
        String tableHash = r.keySchema().get(0).attributeName();
        for (IndexInput x : lsis) {
            checkIndexName(seen, x.indexName());
            checkKeySchema(x.keySchema(), "KeySchema");
            if (x.keySchema().size() != 2) {
                throw DynamoException.invalidParameter("Index KeySchema does not have a range key for index: "
                        + x.indexName());
            }
            if (!x.keySchema().get(0).attributeName().equals(tableHash)) {
                throw DynamoException.invalidParameter("Index KeySchema does not have the same leading hash key as "
                        + "table KeySchema for index: " + x.indexName() + ". index hash key: "
                        + x.keySchema().get(0).attributeName() + ", table hash key: " + tableHash);
            }
            IndexRules.checkProjection(x);
        }
    }

    private static void checkGlobalIndexes(CreateTableRequest r) {
        List<IndexInput> gsis = r.globalSecondaryIndexes();
        if (gsis == null) {
            return;
        }
        if (gsis.isEmpty()) {
            throw DynamoException.invalidParameter("List of GlobalSecondaryIndexes is empty");
        }
        if (gsis.size() > GLOBAL_INDEXES_MAX) {
            throw new DynamoException(ErrorCode.LIMIT_EXCEEDED,
                    "GlobalSecondaryIndex count exceeds the per-table limit of " + GLOBAL_INDEXES_MAX);
        }
        Set<String> seen = new HashSet<>();
        if (r.localSecondaryIndexes() != null) {
            r.localSecondaryIndexes().forEach(x -> seen.add(x.indexName()));
        }
        for (IndexInput x : gsis) {
            checkIndexName(seen, x.indexName());
            checkGlobalKeySchema(x.keySchema());
            IndexRules.checkProjection(x);
        }
        IndexRules.checkProjectedAttributeCount(r.localSecondaryIndexes(), gsis);
    }

    /**
     * A GSI key: one to four HASH elements, then up to four RANGE elements, no name twice. A
     * one-or-two-element schema is checked exactly as a table's, with DynamoDB's messages; the
     * messages for the multi-attribute rules are UNVERIFIED (the feature is recent and its error
     * texts are not quoted in the documentation).
     */
    static void checkGlobalKeySchema(List<KeySchemaInput> keySchema) {
        if (keySchema.size() <= 2 && (keySchema.size() < 2 || "RANGE".equals(keySchema.get(1).keyType()))) {
            checkKeySchema(keySchema, "KeySchema");
            return;
        }
        if (!"HASH".equals(keySchema.get(0).keyType())) {
            throw DynamoException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        int hash = 0;
        int range = 0;
        Set<String> names = new HashSet<>();
        for (KeySchemaInput k : keySchema) {
            if (!names.add(k.attributeName())) {
                throw DynamoException.validation("Invalid KeySchema: Duplicate attribute name in KeySchema: "
                        + k.attributeName());
            }
            if ("HASH".equals(k.keyType())) {
                if (range > 0) {
                    throw DynamoException.validation(
                            "Invalid KeySchema: All HASH key elements must come before the RANGE key elements");
                }
                hash++;
            } else {
                range++;
            }
        }
        if (hash > IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX || range > IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX) {
            throw DynamoException.validation("Invalid KeySchema: A key schema can have at most "
                    + IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX + " HASH and "
                    + IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX + " RANGE key elements");
        }
    }

    private static void checkIndexName(Set<String> seen, String name) {
        if (!seen.add(name)) {
            throw DynamoException.invalidParameter("Duplicate index name: " + name);
        }
    }

    static void checkStream(CreateTableRequest.StreamInput s) {
        if (s == null) {
            return;
        }
        if (Boolean.TRUE.equals(s.streamEnabled()) && s.streamViewType() == null) {
            // UNVERIFIED wording.
            throw DynamoException.invalidParameter(
                    "Table is being created with a stream enabled, StreamViewType must be specified");
        }
        if (Boolean.FALSE.equals(s.streamEnabled()) && s.streamViewType() != null) {
            // "UpdateViewType" is DynamoDB's own wording (third-party capture).
            throw DynamoException.invalidParameter(
                    "Table is being created with a stream disabled, UpdateViewType should not be specified");
        }
    }
}
