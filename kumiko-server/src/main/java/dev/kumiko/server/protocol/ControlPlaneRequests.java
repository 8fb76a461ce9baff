package dev.kumiko.server.protocol;

import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.ProjectionInput;
import dev.kumiko.engine.control.CreateTableRequest.SseInput;
import dev.kumiko.engine.control.CreateTableRequest.StreamInput;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.SseType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.model.TableClass;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes control-plane request bodies into the engine's request records. Enum members are typed
 * leniently (a value that is not one of the enum's reads as absent); the member checks of
 * {@link TableMembers} then report it, after the authorization rule has seen the request.
 */
final class ControlPlaneRequests {
    private ControlPlaneRequests() {}

    static CreateTableRequest createTable(Map<String, Object> b) {
        CreateTableRequest r = createTableUnchecked(b);
        MemberViolations.check(r, () -> TableMembers.createTable(b));
        return r;
    }

    /** CreateTable's members typed, not yet checked (ImportTable checks them later, in its own order). */
    static CreateTableRequest createTableUnchecked(Map<String, Object> b) {
        return new CreateTableRequest(
                Fields.string(b, "TableName"),
                Fields.objects(b, "AttributeDefinitions", ControlPlaneRequests::attributeDefinition),
                keySchema(b, "KeySchema"),
                Fields.objects(b, "LocalSecondaryIndexes", ControlPlaneRequests::index),
                Fields.objects(b, "GlobalSecondaryIndexes", ControlPlaneRequests::index),
                WireEnums.lenient(BillingMode.class, Fields.string(b, "BillingMode")),
                throughput(Fields.object(b, "ProvisionedThroughput")),
                stream(Fields.object(b, "StreamSpecification")),
                sse(Fields.object(b, "SSESpecification")),
                tags(b),
                WireEnums.lenient(TableClass.class, Fields.string(b, "TableClass")),
                Fields.bool(b, "DeletionProtectionEnabled"));
    }

    static UpdateTableRequest updateTable(Map<String, Object> b) {
        List<Object> replicaUpdates = Fields.list(b, "ReplicaUpdates");
        UpdateTableRequest r = new UpdateTableRequest(
                Fields.string(b, "TableName"),
                Fields.objects(b, "AttributeDefinitions", ControlPlaneRequests::attributeDefinition),
                WireEnums.lenient(BillingMode.class, Fields.string(b, "BillingMode")),
                throughput(Fields.object(b, "ProvisionedThroughput")),
                Fields.objects(b, "GlobalSecondaryIndexUpdates", ControlPlaneRequests::gsiUpdate),
                stream(Fields.object(b, "StreamSpecification")),
                sse(Fields.object(b, "SSESpecification")),
                replicaUpdates != null && !replicaUpdates.isEmpty(),
                WireEnums.lenient(TableClass.class, Fields.string(b, "TableClass")),
                Fields.bool(b, "DeletionProtectionEnabled"));
        MemberViolations.check(r, () -> TableMembers.updateTable(b));
        return r;
    }

    private static UpdateTableRequest.GsiUpdate gsiUpdate(Map<String, Object> m) {
        Map<String, Object> create = Fields.object(m, "Create");
        Map<String, Object> update = Fields.object(m, "Update");
        Map<String, Object> delete = Fields.object(m, "Delete");
        return new UpdateTableRequest.GsiUpdate(
                create == null ? null : index(create),
                update == null
                        ? null
                        : new UpdateTableRequest.GsiThroughputUpdate(
                                Fields.string(update, "IndexName"),
                                throughput(Fields.object(update, "ProvisionedThroughput"))),
                delete == null ? null : new UpdateTableRequest.GsiDelete(Fields.string(delete, "IndexName")));
    }

    static @Nullable List<TagInput> tags(Map<String, Object> b) {
        return Fields.objects(b, "Tags", t -> new TagInput(Fields.string(t, "Key"), Fields.string(t, "Value")));
    }

    private static AttributeDefinitionInput attributeDefinition(Map<String, Object> m) {
        return new AttributeDefinitionInput(
                Fields.string(m, "AttributeName"),
                WireEnums.lenient(ScalarAttributeType.class, Fields.string(m, "AttributeType")));
    }

    private static @Nullable List<KeySchemaInput> keySchema(Map<String, Object> b, String name) {
        return Fields.objects(
                b,
                name,
                k -> new KeySchemaInput(
                        Fields.string(k, "AttributeName"),
                        WireEnums.lenient(KeyType.class, Fields.string(k, "KeyType"))));
    }

    static IndexInput index(Map<String, Object> m) {
        Map<String, Object> p = Fields.object(m, "Projection");
        ProjectionInput projection = p == null
                ? null
                : new ProjectionInput(
                        WireEnums.lenient(ProjectionType.class, Fields.string(p, "ProjectionType")),
                        Fields.strings(p, "NonKeyAttributes"));
        return new IndexInput(
                Fields.string(m, "IndexName"),
                keySchema(m, "KeySchema"),
                projection,
                throughput(Fields.object(m, "ProvisionedThroughput")));
    }

    static @Nullable ThroughputInput throughput(@Nullable Map<String, Object> m) {
        return m == null
                ? null
                : new ThroughputInput(
                        Fields.longValue(m, "ReadCapacityUnits"), Fields.longValue(m, "WriteCapacityUnits"));
    }

    private static @Nullable StreamInput stream(@Nullable Map<String, Object> m) {
        return m == null
                ? null
                : new StreamInput(
                        Fields.bool(m, "StreamEnabled"),
                        WireEnums.lenient(StreamViewType.class, Fields.string(m, "StreamViewType")));
    }

    static @Nullable SseInput sse(@Nullable Map<String, Object> m) {
        return m == null
                ? null
                : new SseInput(
                        Fields.bool(m, "Enabled"),
                        WireEnums.lenient(SseType.class, Fields.string(m, "SSEType")),
                        Fields.string(m, "KMSMasterKeyId"));
    }
}
