package dev.kumiko.engine.control;

import dev.kumiko.catalog.AttributeDefinition;
import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.ContributorInsightsSettings;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.Projection;
import dev.kumiko.catalog.RecoverySettings;
import dev.kumiko.catalog.SseSettings;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.catalog.TimeToLiveSettings;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.engine.index.IndexBackfill;
import dev.kumiko.engine.streams.StreamLifecycle;
import dev.kumiko.engine.streams.StreamRequests;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.SseType;
import dev.kumiko.model.TableClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** CreateTable, DescribeTable, ListTables, UpdateTable, DeleteTable and the tag operations. */
public final class ControlPlane {
    static final int LIST_TABLES_LIMIT_MAX = 100;

    private final Catalog catalog;
    private final Clock clock;
    private final IndexBackfill backfill;
    private final ThroughputLimiter limiter;
    private final StreamLifecycle streams;

    public ControlPlane(
            Catalog catalog, Clock clock, IndexBackfill backfill, ThroughputLimiter limiter, StreamLifecycle streams) {
        this.catalog = catalog;
        this.clock = clock;
        this.backfill = backfill;
        this.limiter = limiter;
        this.streams = streams;
    }

    public TableDescription createTable(RequestContext ctx, CreateTableRequest r) {
        CreateTableValidator.validate(r);
        if (catalog.get(r.tableName()) != null) {
            throw new DynamoException(ErrorCode.RESOURCE_IN_USE, "Table already exists: " + r.tableName());
        }
        if (catalog.size() >= Catalog.TABLES_MAX) {
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: The number of tables exceeds the limit of " + Catalog.TABLES_MAX);
        }
        TableDescriptor d = newDescriptor(r);
        if (!catalog.create(d)) {
            throw new DynamoException(ErrorCode.RESOURCE_IN_USE, "Table already exists: " + r.tableName());
        }
        // As in DynamoDB's answer, the new table's GSIs are CREATING too; DescribeTable shows both ACTIVE.
        List<IndexDescriptor> creating =
                new ArrayList<>(d.globalSecondaryIndexes().size());
        d.globalSecondaryIndexes().forEach(x -> creating.add(x.withStatus(IndexDescriptor.CREATING)));
        return describe(
                ctx,
                Objects.requireNonNull(catalog.get(d.tableName()), "the table just created"),
                d.withGlobalIndexes(d.attributeDefinitions(), List.copyOf(creating)),
                "CREATING");
    }

    private TableDescriptor newDescriptor(CreateTableRequest r) {
        long now = clock.nowMillis();
        boolean onDemand = CreateTableValidator.isOnDemand(r.billingMode());
        BillingMode billingMode = onDemand ? BillingMode.PAY_PER_REQUEST : BillingMode.PROVISIONED;
        Throughput throughput = onDemand ? Throughput.ZERO : throughput(r.provisionedThroughput());
        List<AttributeDefinition> definitions = new ArrayList<>();
        r.attributeDefinitions()
                .forEach(a -> definitions.add(new AttributeDefinition(
                        a.attributeName(), a.attributeType().attributeType())));
        return new TableDescriptor(
                catalog.allocateId(),
                r.tableName(),
                UUID.randomUUID().toString(),
                now,
                keySchema(r.keySchema()),
                List.copyOf(definitions),
                billingMode,
                throughput,
                onDemand ? now : 0,
                indexes(r.localSecondaryIndexes(), false, onDemand),
                indexes(r.globalSecondaryIndexes(), true, onDemand),
                streams.onCreate(stream(r.streamSpecification()), now),
                sse(r.sseSpecification()),
                r.tableClass() == null ? TableClass.STANDARD : r.tableClass(),
                Boolean.TRUE.equals(r.deletionProtectionEnabled()),
                tags(Map.of(), r.tags()),
                TimeToLiveSettings.DISABLED,
                RecoverySettings.NONE,
                ContributorInsightsSettings.NONE,
                dev.kumiko.catalog.KinesisDestinations.NONE);
    }

    private static Throughput throughput(ThroughputInput t) {
        return t == null ? Throughput.ZERO : new Throughput(t.readCapacityUnits(), t.writeCapacityUnits());
    }

    private static List<KeySchemaElement> keySchema(List<KeySchemaInput> in) {
        List<KeySchemaElement> out = new ArrayList<>(in.size());
        in.forEach(k -> out.add(new KeySchemaElement(k.attributeName(), k.keyType())));
        return List.copyOf(out);
    }

    private List<IndexDescriptor> indexes(List<IndexInput> in, boolean global, boolean onDemand) {
        if (in == null) {
            return List.of();
        }
        List<IndexDescriptor> out = new ArrayList<>(in.size());
        for (IndexInput x : in) {
            List<String> nonKey = x.projection().nonKeyAttributes();
            Throughput t = global && !onDemand ? throughput(x.provisionedThroughput()) : Throughput.ZERO;
            out.add(new IndexDescriptor(
                    catalog.allocateId(),
                    x.indexName(),
                    global,
                    keySchema(x.keySchema()),
                    new Projection(x.projection().projectionType(), nonKey == null ? null : List.copyOf(nonKey)),
                    t,
                    "ACTIVE"));
        }
        return List.copyOf(out);
    }

    private static StreamRequests.@Nullable Specification stream(CreateTableRequest.StreamInput s) {
        return s == null ? null : new StreamRequests.Specification(s.streamEnabled(), s.streamViewType());
    }

    private static SseSettings sse(CreateTableRequest.SseInput s) {
        if (s == null || !Boolean.TRUE.equals(s.enabled())) {
            return SseSettings.DEFAULT;
        }
        return new SseSettings(true, s.sseType() == null ? SseType.KMS : s.sseType(), s.kmsMasterKeyId());
    }

    private static Map<String, String> tags(Map<String, String> current, List<TagInput> add) {
        TagRules.checkCharacters(add);
        Map<String, String> out = new LinkedHashMap<>(current);
        if (add != null) {
            add.forEach(t -> out.put(t.key(), t.value()));
        }
        if (out.size() > TagRules.TAGS_MAX) {
            // UNVERIFIED wording; the limit of 50 tags per resource is documented.
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "The number of tags exceeds the limit of " + TagRules.TAGS_MAX + " per resource");
        }
        return Map.copyOf(out);
    }

    public TableDescription describeTable(RequestContext ctx, String tableNameOrArn) {
        Table t = controlTable(tableNameOrArn);
        return describe(ctx, t, t.descriptor().recovery().restoring() ? "CREATING" : "ACTIVE");
    }

    /**
     * The partition key attribute of a table, or of its index when indexName is not null; null when
     * either does not exist. For callers that judge a request before running it (IAM's LeadingKeys).
     */
    public @Nullable String partitionKeyName(String tableName, @Nullable String indexName) {
        Table t = catalog.get(tableName);
        if (t == null) {
            return null;
        }
        TableDescriptor d = t.descriptor();
        if (indexName == null) {
            return d.hashKeyName();
        }
        for (List<IndexDescriptor> indexes : List.of(d.localSecondaryIndexes(), d.globalSecondaryIndexes())) {
            for (IndexDescriptor x : indexes) {
                if (x.indexName().equals(indexName)) {
                    return x.hashKeyName();
                }
            }
        }
        return null;
    }

    /** Control-plane lookups say which table is missing; data-plane ones do not. */
    private Table controlTable(String tableNameOrArn) {
        String name = TableNames.resolve(tableNameOrArn, "tableName");
        Table t = catalog.get(name);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return t;
    }

    private TableDescription describe(RequestContext ctx, Table t, String status) {
        return describe(ctx, t, t.descriptor(), status);
    }

    /** Describes t as {@code shown}, which may still list indexes being deleted. */
    private TableDescription describe(RequestContext ctx, Table t, TableDescriptor d, String status) {
        TableDescriptor shown = d.throughputAsOf(clock.nowMillis());
        Map<Integer, TableDescription.IndexCounts> counts = new LinkedHashMap<>();
        for (List<IndexDescriptor> list : List.of(shown.localSecondaryIndexes(), shown.globalSecondaryIndexes())) {
            for (IndexDescriptor x : list) {
                counts.put(
                        x.id(),
                        new TableDescription.IndexCounts(
                                t.indexStats(x.id()).itemCount(),
                                t.indexStats(x.id()).sizeBytes()));
            }
        }
        return new TableDescription(
                shown,
                status,
                t.stats().itemCount(),
                t.stats().sizeBytes(),
                ctx.tableArn(shown.tableName()),
                ctx.region(),
                Map.copyOf(counts));
    }

    public ListTablesResult listTables(String exclusiveStartTableName, Long limit) {
        Constraints c = new Constraints();
        c.tableName("exclusiveStartTableName", exclusiveStartTableName);
        c.range("limit", limit, 1, LIST_TABLES_LIMIT_MAX);
        c.throwIfAny();
        int max = limit == null ? LIST_TABLES_LIMIT_MAX : limit.intValue();
        List<String> names = catalog.names(exclusiveStartTableName, max + 1);
        if (names.size() > max) {
            List<String> page = names.subList(0, max);
            return new ListTablesResult(List.copyOf(page), page.get(max - 1));
        }
        return new ListTablesResult(names, null);
    }

    public TableDescription deleteTable(RequestContext ctx, String tableNameOrArn) {
        Table t = controlTable(tableNameOrArn);
        if (t.descriptor().globalSecondaryIndexes().stream().anyMatch(x -> !x.isReadable())) {
            // Verified wording: DynamoDB refuses while any GSI is being created.
            throw new DynamoException(
                    ErrorCode.RESOURCE_IN_USE,
                    "Cannot delete table while indexes are being created, updated, or deleted");
        }
        if (t.descriptor().deletionProtectionEnabled()) {
            throw new DynamoException(
                    ErrorCode.RESOURCE_IN_USE,
                    "Resource cannot be deleted as it is currently "
                            + "protected against deletion. Disable deletion protection first.");
        }
        TableDescription before = describe(ctx, t, "DELETING");
        catalog.drop(t.descriptor().tableName());
        return before;
    }

    /**
     * Holds the catalog's lock throughout, so that a backfill finishing meanwhile cannot be
     * overwritten with the descriptor read here.
     */
    public TableDescription updateTable(RequestContext ctx, UpdateTableRequest r) {
        UpdateTableValidator.checkRequest(r);
        synchronized (catalog) {
            Table t = controlTable(r.tableName());
            GsiUpdates.Applied[] gsi = new GsiUpdates.Applied[1];
            TableDescriptor updated = catalog.modify(t, d -> updated(r, d, gsi));
            if (updated == null) {
                throw DynamoException.resourceNotFound(
                        "Requested resource not found: Table: " + r.tableName() + " not found");
            }
            limiter.throughputChanged(t);
            streams.closeDisabled(t);
            TableDescription answer = describe(ctx, t, withDeleting(updated, gsi[0].deleted()), "UPDATING");
            for (IndexDescriptor x : gsi[0].deleted()) {
                catalog.dropIndex(t, x);
            }
            for (IndexDescriptor x : gsi[0].created()) {
                backfill.start(updated.tableName(), x.id());
            }
            return answer;
        }
    }

    /**
     * The descriptor UpdateTable r makes of d (the stored one, asked again if another engine
     * changed it meanwhile); gsi[0] receives the GSI changes.
     */
    private TableDescriptor updated(UpdateTableRequest r, TableDescriptor d, GsiUpdates.Applied[] gsi) {
        UpdateTableValidator.check(r, d);
        boolean onDemand = UpdateTableValidator.willBeOnDemand(r, d);
        BillingMode billingMode = onDemand ? BillingMode.PAY_PER_REQUEST : BillingMode.PROVISIONED;
        Throughput throughput = onDemand ? Throughput.ZERO : provisioned(r, d);
        long billingChange = billingMode == d.billingMode() ? d.billingModeChangeEpochMillis() : clock.nowMillis();
        boolean deletionProtection =
                r.deletionProtectionEnabled() == null ? d.deletionProtectionEnabled() : r.deletionProtectionEnabled();
        SseSettings sse = r.sseSpecification() == null ? d.sse() : sse(r.sseSpecification());
        gsi[0] = r.hasGlobalSecondaryIndexUpdates()
                ? GsiUpdates.apply(r, d, onDemand, catalog::allocateId, clock.nowMillis())
                : new GsiUpdates.Applied(d, List.of(), List.of());
        return gsi[0].descriptor()
                .withSettings(
                        billingMode,
                        throughput,
                        billingChange,
                        streams.onUpdate(stream(r.streamSpecification()), d, clock.nowMillis()),
                        deletionProtection,
                        r.tableClass() == null ? d.tableClass() : r.tableClass(),
                        onDemandGsis(gsi[0].descriptor().globalSecondaryIndexes(), onDemand),
                        sse);
    }

    /**
     * The table's provisioned units after r: a change of provisioned units is stamped as an
     * increase or decrease; a switch from on-demand starts a new history.
     */
    private Throughput provisioned(UpdateTableRequest r, TableDescriptor d) {
        if (r.provisionedThroughput() == null) {
            return d.throughput();
        }
        Throughput requested = throughput(r.provisionedThroughput());
        if (d.billingMode() != BillingMode.PROVISIONED) {
            return requested;
        }
        return d.throughput()
                .changedTo(requested.readCapacityUnits(), requested.writeCapacityUnits(), clock.nowMillis());
    }

    /** A switch to on-demand drops the GSIs' provisioned throughput. */
    private static List<IndexDescriptor> onDemandGsis(List<IndexDescriptor> gsis, boolean onDemand) {
        if (!onDemand) {
            return gsis;
        }
        List<IndexDescriptor> out = new ArrayList<>(gsis.size());
        gsis.forEach(x -> out.add(x.withThroughput(Throughput.ZERO)));
        return List.copyOf(out);
    }

    /** The descriptor UpdateTable answers with: deleted GSIs still listed, as DELETING. */
    private static TableDescriptor withDeleting(TableDescriptor d, List<IndexDescriptor> deleted) {
        if (deleted.isEmpty()) {
            return d;
        }
        List<IndexDescriptor> shown = new ArrayList<>(d.globalSecondaryIndexes());
        deleted.forEach(x -> shown.add(x.withStatus("DELETING")));
        return d.withGlobalIndexes(d.attributeDefinitions(), List.copyOf(shown));
    }

    public void tagResource(String resourceArn, List<TagInput> tags) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, 1283);
        }
        if (c.notNull("tags", tags)) {
            TagRules.checkMembers(c, "tags", tags);
        }
        c.throwIfAny();
        Table t = tableByArn(resourceArn, "TagResource");
        changeOrNotFound(t, d -> d.withTags(tags(d.tags(), tags)), resourceArn);
    }

    public void untagResource(String resourceArn, List<String> tagKeys) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, 1283);
        }
        c.notNull("tagKeys", tagKeys);
        c.throwIfAny();
        Table t = tableByArn(resourceArn, "UntagResource");
        changeOrNotFound(
                t,
                d -> {
                    Map<String, String> remaining = new LinkedHashMap<>(d.tags());
                    tagKeys.forEach(remaining::remove);
                    return d.withTags(Map.copyOf(remaining));
                },
                resourceArn);
    }

    /** Changes t's descriptor; a table deleted meanwhile answers as tableByArn would. */
    private void changeOrNotFound(Table t, java.util.function.UnaryOperator<TableDescriptor> change, String arn) {
        if (catalog.modify(t, change) == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: ResourceArn: " + arn + " not found");
        }
    }

    public Map<String, String> listTags(String resourceArn) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, 1283);
        }
        c.throwIfAny();
        return tableByArn(resourceArn, "ListTagsOfResource").descriptor().tags();
    }

    private Table tableByArn(String arn, String operation) {
        String name = TagArns.tableName(arn, operation);
        Table t = catalog.get(name);
        if (t == null) {
            // The 2026 form; a 2022 capture spelled it "ResourcArn" (docs/notes/error-messages.md).
            throw DynamoException.resourceNotFound("Requested resource not found: ResourceArn: " + arn + " not found");
        }
        return t;
    }
}
