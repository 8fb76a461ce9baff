package dev.kumiko.engine.vector;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.ControlPlane;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The vector members of the table operations, and SearchVectors. The table itself is created,
 * updated and deleted by {@link ControlPlane}; this adds and removes its vector indexes around it.
 */
public final class VectorOperations {
    private final Catalog catalog;
    private final Store store;
    private final VectorIndexes indexes;
    private final ControlPlane control;

    public VectorOperations(Catalog catalog, Store store, VectorIndexes indexes, ControlPlane control) {
        this.catalog = catalog;
        this.store = store;
        this.indexes = indexes;
        this.control = control;
    }

    /** CreateTable with VectorIndexes (absent or empty: a plain CreateTable). */
    public TableDescription createTable(
            RequestContext ctx, CreateTableRequest r, @Nullable List<VectorRequests.IndexInput> vectorIndexes) {
        if (vectorIndexes == null || vectorIndexes.isEmpty()) {
            return control.createTable(ctx, r);
        }
        indexes.requireSupported();
        List<VectorRequests.IndexInput> inputs = vectorIndexes;
        List<String> keys = new ArrayList<>();
        if (r.keySchema() != null) {
            r.keySchema().forEach(k -> keys.add(k.attributeName()));
        }
        List<String> otherNames = new ArrayList<>();
        addNames(otherNames, r.globalSecondaryIndexes());
        addNames(otherNames, r.localSecondaryIndexes());
        BillingMode mode = r.billingMode() == null ? BillingMode.PROVISIONED : r.billingMode();
        List<VectorIndexDefinition> defs =
                VectorIndexRules.check("vectorIndexes", inputs, mode, keys, otherNames, List.of());
        TableDescription created = control.createTable(ctx, r);
        indexes.createWithTable(created.descriptor().id(), defs);
        return created;
    }

    private static void addNames(List<String> out, @Nullable List<CreateTableRequest.IndexInput> in) {
        if (in != null) {
            in.forEach(x -> {
                if (x.indexName() != null) {
                    out.add(x.indexName());
                }
            });
        }
    }

    /**
     * UpdateTable with VectorIndexUpdates: one Create or Delete, alone in the request, as DynamoDB
     * allows one online index change at a time. Null or empty updates: a plain UpdateTable.
     */
    public TableDescription updateTable(
            RequestContext ctx, UpdateTableRequest r, @Nullable List<VectorRequests.IndexUpdate> updates) {
        if (updates == null || updates.isEmpty()) {
            return control.updateTable(ctx, r);
        }
        if (alongside(r)) {
            // Wording UNVERIFIED, modeled on DynamoDB's for TableClass changes.
            throw DynamoException.validation("VectorIndexUpdates must be the only operation in the request");
        }
        if (updates.size() > 1) {
            // Same limit and wording as for GSIs (verified there).
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
        }
        TableDescription before = control.describeTable(ctx, java.util.Objects.requireNonNull(r.tableName()));
        TableDescriptor d = before.descriptor();
        VectorRequests.IndexUpdate u = updates.get(0);
        if ((u.create() == null) == !u.hasDelete()) {
            // Wording UNVERIFIED, as for GlobalSecondaryIndexUpdates.
            throw DynamoException.invalidParameter(
                    "One of Create or Delete must be specified in each VectorIndexUpdate, and only one");
        }
        indexes.requireSupported();
        if (u.create() != null) {
            create(d, u.create());
        } else {
            delete(d, u.deleteIndexName());
        }
        return control.describeTable(ctx, d.tableName());
    }

    private void create(TableDescriptor d, VectorRequests.IndexInput in) {
        List<VectorIndexDefinition> existing = indexes.definitions(d.id());
        for (VectorIndexDefinition x : existing) {
            if (!x.status().equals(VectorIndexDefinition.ACTIVE)) {
                throw new DynamoException(
                        ErrorCode.LIMIT_EXCEEDED,
                        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
            }
        }
        List<String> keys = new ArrayList<>();
        d.keySchema().forEach((KeySchemaElement k) -> keys.add(k.attributeName()));
        List<String> others = new ArrayList<>();
        d.globalSecondaryIndexes().forEach((IndexDescriptor x) -> others.add(x.indexName()));
        d.localSecondaryIndexes().forEach((IndexDescriptor x) -> others.add(x.indexName()));
        List<VectorIndexDefinition> defs = VectorIndexRules.check(
                "vectorIndexUpdates.1.member.create", List.of(in), d.billingMode(), keys, others, existing);
        indexes.add(d.id(), defs.get(0));
    }

    private void delete(TableDescriptor d, @Nullable String indexName) {
        if (indexName == null || indexes.find(d.id(), indexName) == null) {
            // The GSI's wording (verified there).
            throw DynamoException.resourceNotFound(
                    "Requested resource not found: Index " + indexName + " for table " + d.tableName());
        }
        indexes.delete(d.id(), indexName);
    }

    private static boolean alongside(UpdateTableRequest r) {
        return r.billingMode() != null
                || r.provisionedThroughput() != null
                || r.hasGlobalSecondaryIndexUpdates()
                || r.streamSpecification() != null
                || r.sseSpecification() != null
                || r.hasReplicaUpdates()
                || r.tableClass() != null
                || r.deletionProtectionEnabled() != null;
    }

    /** DeleteTable, which also forgets the table's vector indexes. */
    public TableDescription deleteTable(RequestContext ctx, String tableNameOrArn) {
        TableDescription deleted = control.deleteTable(ctx, tableNameOrArn);
        indexes.dropTable(deleted.descriptor().id());
        return deleted;
    }

    /** What DescribeTable lists under VectorIndexes. */
    public List<VectorIndexes.Described> describe(TableDescriptor d) {
        return indexes.describe(d.id());
    }

    /** The name of the searcher in use, for logs and benchmarks. */
    public String searcherName() {
        return indexes.searcherName();
    }

    public VectorRequests.SearchResult searchVectors(VectorRequests.SearchVectors r) {
        return new SearchVectorsOperation(catalog, store, indexes).run(r);
    }

    /** Whether the table has a vector index of that name (Query and Scan refuse to read one). */
    public boolean isVectorIndex(TableDescriptor d, String indexName) {
        return indexes.find(d.id(), indexName) != null;
    }
}
