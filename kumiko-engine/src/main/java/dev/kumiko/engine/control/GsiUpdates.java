package dev.kumiko.engine.control;

import dev.kumiko.catalog.AttributeDefinition;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.Projection;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.UpdateTableRequest.GsiUpdate;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.AttributeType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * UpdateTable's GlobalSecondaryIndexUpdates: checks in DynamoDB's order and the descriptor they
 * produce. Rules and messages marked verified come from probes of DynamoDB recorded by third
 * parties (docs/notes/error-messages.md); the others are UNVERIFIED.
 */
final class GsiUpdates {
    private GsiUpdates() {}

    /** The descriptor after the updates, plus the indexes created and deleted. */
    record Applied(TableDescriptor descriptor, List<IndexDescriptor> created, List<IndexDescriptor> deleted) {}

    /** Rules that depend on the table; runs before anything is changed, so a rejection changes nothing. */
    static void check(UpdateTableRequest r, TableDescriptor d, boolean onDemand) {
        int onlineChanges = 0;
        for (GsiUpdate u : r.globalSecondaryIndexUpdates()) {
            int actions = (u == null
                    ? 0
                    : (u.create() != null ? 1 : 0) + (u.update() != null ? 1 : 0) + (u.delete() != null ? 1 : 0));
            if (actions != 1) {
                // UNVERIFIED wording.
                throw DynamoException.invalidParameter("One of Create, Update or Delete must be specified in each "
                        + "GlobalSecondaryIndexUpdate, and only one");
            }
            onlineChanges += u.update() == null ? 1 : 0;
        }
        boolean building = d.globalSecondaryIndexes().stream().anyMatch(x -> !x.isReadable());
        if (onlineChanges > 1 || (onlineChanges == 1 && building)) {
            // Verified: LimitExceededException, also while another index is still being built.
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
        }
        if (onlineChanges == 1) {
            checkAlone(r);
        }
        for (GsiUpdate u : r.globalSecondaryIndexUpdates()) {
            if (u.create() != null) {
                checkCreate(r, d, u.create(), onDemand);
            } else {
                String name =
                        u.update() != null ? u.update().indexName() : u.delete().indexName();
                IndexDescriptor x = find(d.globalSecondaryIndexes(), name);
                if (x == null) {
                    // Verified wording (ResourceNotFoundException).
                    throw DynamoException.resourceNotFound(
                            "Requested resource not found: Index " + name + " for table " + d.tableName());
                }
                if (u.update() != null) {
                    checkThroughputUpdate(x, u.update(), onDemand);
                }
            }
        }
    }

    /** Verified: a Create or Delete shares its call only with BillingMode and GSI Updates. */
    private static void checkAlone(UpdateTableRequest r) {
        if (r.provisionedThroughput() != null) {
            throw DynamoException.validation("You cannot create or delete index while updating table IOPS");
        }
        if (r.streamSpecification() != null) {
            throw DynamoException.validation("You cannot create or delete index while changing stream status");
        }
        if (r.deletionProtectionEnabled() != null) {
            throw DynamoException.validation(
                    "DeletionProtection modification must be the only operation in the request");
        }
        if (r.sseSpecification() != null) {
            throw DynamoException.validation(
                    "Server-Side Encryption modification must be the only operation in the request");
        }
        if (r.tableClass() != null) {
            throw DynamoException.validation("TableClass modification must be the only operation in the request");
        }
    }

    /**
     * One attribute defined twice (with two types, or one) is refused as CreateTable refuses it;
     * the stored type of an attribute defined once still wins over the request's.
     */
    private static void checkNoDuplicateDefinitions(UpdateTableRequest r) {
        if (r.attributeDefinitions() == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (AttributeDefinitionInput a : r.attributeDefinitions()) {
            if (!seen.add(a.attributeName())) {
                // CreateTable's observed wording (UNVERIFIED for UpdateTable).
                throw DynamoException.validation(CreateTableValidator.DUPLICATE_ATTRIBUTE + a.attributeName());
            }
        }
    }

    private static void checkCreate(UpdateTableRequest r, TableDescriptor d, IndexInput x, boolean onDemand) {
        if (find(d.globalSecondaryIndexes(), x.indexName()) != null
                || find(d.localSecondaryIndexes(), x.indexName()) != null) {
            // UNVERIFIED wording, by analogy with CreateTable's duplicate-name message.
            throw DynamoException.invalidParameter("Duplicate index name: " + x.indexName());
        }
        if (d.globalSecondaryIndexes().size() >= CreateTableValidator.GLOBAL_INDEXES_MAX) {
            // Verified type (LimitExceededException via UpdateTable); UNVERIFIED wording.
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "GlobalSecondaryIndex count exceeds the per-table limit of "
                            + CreateTableValidator.GLOBAL_INDEXES_MAX);
        }
        CreateTableValidator.checkGlobalKeySchema(x.keySchema());
        IndexRules.checkProjection(x);
        checkNoDuplicateDefinitions(r);
        // The API Reference: when adding a GSI, the request's AttributeDefinitions "must include the
        // key element(s) of the new index", even those the table already defines (AWS was observed
        // to refuse them missing). The list shown is the request's.
        for (KeySchemaInput k : x.keySchema()) {
            if (!definedInRequest(r, k.attributeName())) {
                throw DynamoException.invalidParameter("Some index key attributes are not defined in "
                        + "AttributeDefinitions. Keys: " + names(x.keySchema()) + ", AttributeDefinitions: "
                        + requestNames(r));
            }
        }
        if (onDemand && x.provisionedThroughput() != null) {
            throw DynamoException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
                    + "for index: " + x.indexName() + " when BillingMode is PAY_PER_REQUEST");
        }
        if (!onDemand) {
            if (x.provisionedThroughput() == null) {
                // UNVERIFIED wording.
                throw DynamoException.invalidParameter(
                        "ProvisionedThroughput must be specified for index: " + x.indexName());
            }
            CreateTableValidator.checkThroughputLimit(x.provisionedThroughput());
        }
        int projected = 0;
        for (IndexDescriptor existing : d.globalSecondaryIndexes()) {
            projected += existing.projection().nonKeyAttributes() == null
                    ? 0
                    : existing.projection().nonKeyAttributes().size();
        }
        for (IndexDescriptor existing : d.localSecondaryIndexes()) {
            projected += existing.projection().nonKeyAttributes() == null
                    ? 0
                    : existing.projection().nonKeyAttributes().size();
        }
        projected += x.projection().nonKeyAttributes() == null
                ? 0
                : x.projection().nonKeyAttributes().size();
        if (projected > CreateTableValidator.PROJECTED_ATTRIBUTES_MAX) {
            throw DynamoException.invalidParameter("The number of projected attributes in all indexes exceeds "
                    + "the limit of " + CreateTableValidator.PROJECTED_ATTRIBUTES_MAX + ", provided: " + projected);
        }
    }

    private static void checkThroughputUpdate(
            IndexDescriptor x, UpdateTableRequest.GsiThroughputUpdate u, boolean onDemand) {
        CreateTableRequest.ThroughputInput t = u.provisionedThroughput();
        if (onDemand) {
            // Probes of AWS (2026) got this for an on-demand table's GSI Update with provisioned
            // throughput or with nothing at all; Kumiko models neither OnDemandThroughput nor WarmThroughput.
            throw DynamoException.invalidParameter("The only Updates for index: " + x.indexName()
                    + " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput");
        }
        if (t == null) {
            // UNVERIFIED wording: an Update needs something to change.
            throw DynamoException.invalidParameter(
                    "ProvisionedThroughput must be specified for index: " + x.indexName());
        }
        CreateTableValidator.checkThroughputLimit(t);
        Throughput now = x.throughput();
        if (t.readCapacityUnits() == now.readCapacityUnits() && t.writeCapacityUnits() == now.writeCapacityUnits()) {
            // Captured by probes of AWS (2026) up to "Current WriteCapacityUnits"; the rest follows the
            // table's text (UNVERIFIED).
            throw DynamoException.validation("The provisioned throughput for the index " + x.indexName()
                    + " will not change. The requested value equals the current value. Current ReadCapacityUnits "
                    + "provisioned for index " + x.indexName() + ": " + now.readCapacityUnits()
                    + ". Requested ReadCapacityUnits: " + t.readCapacityUnits()
                    + ". Current WriteCapacityUnits provisioned for index " + x.indexName() + ": "
                    + now.writeCapacityUnits() + ". Requested WriteCapacityUnits: " + t.writeCapacityUnits()
                    + ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher "
                    + "limits.");
        }
    }

    /**
     * Applies checked updates to d: Creates join as CREATING (backfilled later), Updates change
     * throughput, Deletes leave the descriptor. Attribute definitions follow the keys: a Create
     * adds its key attributes' definitions, a Delete prunes those no key uses any more (verified).
     */
    static Applied apply(
            UpdateTableRequest r, TableDescriptor d, boolean onDemand, IntSupplier allocateId, long nowMillis) {
        List<IndexDescriptor> gsis = new ArrayList<>(d.globalSecondaryIndexes());
        List<IndexDescriptor> created = new ArrayList<>(1);
        List<IndexDescriptor> deleted = new ArrayList<>(1);
        List<AttributeDefinition> definitions = new ArrayList<>(d.attributeDefinitions());
        for (GsiUpdate u : r.globalSecondaryIndexUpdates()) {
            if (u.create() != null) {
                IndexDescriptor x = newIndex(u.create(), onDemand, allocateId.getAsInt());
                gsis.add(x);
                created.add(x);
                for (KeySchemaElement k : x.keySchema()) {
                    if (d.attributeType(k.attributeName()) == null) {
                        // The validator refused a new index key without an AttributeDefinition.
                        definitions.add(new AttributeDefinition(
                                k.attributeName(), Objects.requireNonNull(typeOf(r, d, k.attributeName()), "defined")));
                    }
                }
            } else if (u.update() != null) {
                CreateTableRequest.ThroughputInput t = u.update().provisionedThroughput();
                int i = gsis.indexOf(find(gsis, u.update().indexName()));
                IndexDescriptor x = gsis.get(i);
                gsis.set(
                        i,
                        x.withThroughput(
                                x.throughput().readCapacityUnits() == 0
                                        ? new Throughput(t.readCapacityUnits(), t.writeCapacityUnits())
                                        : x.throughput()
                                                .changedTo(t.readCapacityUnits(), t.writeCapacityUnits(), nowMillis)));
            } else {
                IndexDescriptor x = find(gsis, u.delete().indexName());
                gsis.remove(x);
                deleted.add(x);
            }
        }
        if (!deleted.isEmpty()) {
            definitions = pruned(definitions, d, gsis);
        }
        return new Applied(d.withGlobalIndexes(List.copyOf(definitions), List.copyOf(gsis)), created, deleted);
    }

    private static IndexDescriptor newIndex(IndexInput x, boolean onDemand, int id) {
        List<KeySchemaElement> keys = new ArrayList<>(x.keySchema().size());
        x.keySchema().forEach(k -> keys.add(new KeySchemaElement(k.attributeName(), k.keyType())));
        List<String> nonKey = x.projection().nonKeyAttributes();
        Throughput t = onDemand
                ? Throughput.ZERO
                : new Throughput(
                        x.provisionedThroughput().readCapacityUnits(),
                        x.provisionedThroughput().writeCapacityUnits());
        return new IndexDescriptor(
                id,
                x.indexName(),
                true,
                List.copyOf(keys),
                new Projection(x.projection().projectionType(), nonKey == null ? null : List.copyOf(nonKey)),
                t,
                IndexDescriptor.CREATING);
    }

    private static List<AttributeDefinition> pruned(
            List<AttributeDefinition> definitions, TableDescriptor d, List<IndexDescriptor> gsis) {
        Set<String> used = new LinkedHashSet<>();
        d.keySchema().forEach(k -> used.add(k.attributeName()));
        d.localSecondaryIndexes().forEach(x -> used.addAll(x.keyNames()));
        gsis.forEach(x -> used.addAll(x.keyNames()));
        List<AttributeDefinition> out = new ArrayList<>();
        for (AttributeDefinition a : definitions) {
            if (used.contains(a.attributeName())) {
                out.add(a);
            }
        }
        return out;
    }

    /** The table's type for an attribute, else the request's AttributeDefinitions' type, else null. */
    private static @Nullable AttributeType typeOf(UpdateTableRequest r, TableDescriptor d, String name) {
        AttributeType known = d.attributeType(name);
        if (known != null || r.attributeDefinitions() == null) {
            return known;
        }
        for (AttributeDefinitionInput a : r.attributeDefinitions()) {
            if (name.equals(a.attributeName()) && a.attributeType() != null) {
                return a.attributeType().attributeType();
            }
        }
        return null;
    }

    private static boolean definedInRequest(UpdateTableRequest r, String name) {
        return r.attributeDefinitions() != null
                && r.attributeDefinitions().stream().anyMatch(a -> name.equals(a.attributeName()));
    }

    private static List<String> requestNames(UpdateTableRequest r) {
        Set<String> out = new LinkedHashSet<>();
        if (r.attributeDefinitions() != null) {
            r.attributeDefinitions().forEach(a -> out.add(a.attributeName()));
        }
        return List.copyOf(out);
    }

    private static List<String> names(List<KeySchemaInput> keys) {
        List<String> out = new ArrayList<>(keys.size());
        keys.forEach(k -> out.add(k.attributeName()));
        return out;
    }

    static @Nullable IndexDescriptor find(List<IndexDescriptor> indexes, String name) {
        for (IndexDescriptor x : indexes) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        return null;
    }
}
