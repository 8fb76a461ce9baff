package dev.kumiko.engine.control;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * CreateTable's checks in DynamoDB's order, after the API model's member constraints (the caller's:
 * the server's decoder answers them with DynamoDB's texts): the key schema, attribute definitions,
 * billing, indexes and stream, each failing alone with DynamoDB's message.
 */
final class CreateTableValidator {
    static final String DUPLICATE_ATTRIBUTE = "Attribute Name is duplicated: ";
    static final int LOCAL_INDEXES_MAX = 5;
    static final int GLOBAL_INDEXES_MAX = 20;
    /** Projected non-key attributes summed over all indexes of a table. */
    static final int PROJECTED_ATTRIBUTES_MAX = 100;

    static final long CAPACITY_UNITS_MAX = 40_000;
    /** Four partition-key and four sort-key attributes: DynamoDB's multi-attribute GSI keys. */
    static final int GSI_KEY_ELEMENTS_MAX = 2 * IndexDescriptor.KEY_ATTRIBUTES_PER_PART_MAX;

    private CreateTableValidator() {}

    /**
     * The request's shape, then every key schema (the table's and its indexes'), then throughput:
     * DynamoDB judges the keys before the capacity, so a table with a bad index key and no
     * throughput is told about the key.
     */
    static void validate(CreateTableRequest r) {
        RequiredMembers.check(r);
        checkKeySchema(r.keySchema(), "KeySchema");
        checkDefinitions(r);
        checkLocalIndexes(r);
        checkGlobalIndexes(r);
        checkBilling(r);
        checkStream(r.streamSpecification());
    }

    static void checkThroughputLimit(ThroughputInput t) {
        if (t.readCapacityUnits() > CAPACITY_UNITS_MAX || t.writeCapacityUnits() > CAPACITY_UNITS_MAX) {
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: Provisioned throughput "
                            + "for the table exceeds the account limit; read units: " + CAPACITY_UNITS_MAX
                            + ", write units: " + CAPACITY_UNITS_MAX);
        }
    }

    static void checkKeySchema(List<KeySchemaInput> keySchema, String what) {
        if (keySchema.get(0).keyType() != KeyType.HASH) {
            throw DynamoException.validation("Invalid " + what + ": The first KeySchemaElement is not a HASH key type");
        }
        if (keySchema.size() == 2) {
            if (keySchema.get(1).keyType() != KeyType.RANGE) {
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
                // Observed from DynamoDB (a ScyllaDB maintainer's report, scylladb/scylladb#13870).
                throw DynamoException.validation(DUPLICATE_ATTRIBUTE + d.attributeName());
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

    static boolean isOnDemand(BillingMode billingMode) {
        return billingMode == BillingMode.PAY_PER_REQUEST;
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
                        throw DynamoException.invalidParameter(
                                "Neither ReadCapacityUnits nor WriteCapacityUnits " + "can be specified for index: "
                                        + x.indexName() + " when BillingMode is PAY_PER_REQUEST");
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
                throw DynamoException.invalidParameter(
                        "Index KeySchema does not have a range key for index: " + x.indexName());
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
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
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
        if (keySchema.size() <= 2 && (keySchema.size() < 2 || keySchema.get(1).keyType() == KeyType.RANGE)) {
            checkKeySchema(keySchema, "KeySchema");
            return;
        }
        if (keySchema.get(0).keyType() != KeyType.HASH) {
            throw DynamoException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        int hash = 0;
        int range = 0;
        Set<String> names = new HashSet<>();
        for (KeySchemaInput k : keySchema) {
            if (!names.add(k.attributeName())) {
                throw DynamoException.validation(
                        "Invalid KeySchema: Duplicate attribute name in KeySchema: " + k.attributeName());
            }
            if (k.keyType() == KeyType.HASH) {
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
