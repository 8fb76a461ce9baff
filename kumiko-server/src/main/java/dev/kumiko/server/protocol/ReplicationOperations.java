package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.engine.replication.ReplicatedChange;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.policy.ResourceChecks;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kumiko's internal calls between the regions of a global table, on each server's DynamoDB endpoint
 * (target {@code DynamoDB_20120810.Kumiko...}), so that they pass the same SigV4 verification and
 * policies as any call: with {@code --auth=sigv4} the sending region signs them with a key of its
 * credentials file, and the receiving region's policies must grant that key the actions named
 * below on the table. DynamoDB has no such public operations: its regions talk over AWS's own
 * network. A client may call them too (they do what a peer region would); they are not part of
 * DynamoDB's API.
 *
 * <ul>
 * <li>{@code KumikoCreateReplica} (dynamodb:CreateTableReplica): make this region's replica;</li>
 * <li>{@code KumikoDeleteReplica} (dynamodb:DeleteTableReplica): drop it;</li>
 * <li>{@code KumikoPublishReplicas} (dynamodb:UpdateTable): keep a changed replica set;</li>
 * <li>{@code KumikoReplicateChanges} (dynamodb:PutItem): apply a peer's changes, last writer wins;</li>
 * <li>{@code KumikoJoinGlobalTable} (dynamodb:CreateGlobalTable): link this region's table into a
 * legacy global table;</li>
 * <li>{@code KumikoReplicaSettings} (dynamodb:UpdateGlobalTableSettings with a change,
 * dynamodb:DescribeGlobalTableSettings without): change this region's table of a legacy global
 * table and answer its settings.</li>
 * </ul>
 */
final class ReplicationOperations {
    static final List<String> NAMES = List.of(
            "KumikoCreateReplica",
            "KumikoDeleteReplica",
            "KumikoPublishReplicas",
            "KumikoReplicateChanges",
            "KumikoJoinGlobalTable",
            "KumikoReplicaSettings");

    private ReplicationOperations() {}

    /** What a body names; the decoded request of the internal calls. */
    record Named<T>(String tableName, T value) {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "KumikoCreateReplica" ->
                dynamodb(
                        name,
                        ReplicationOperations::createReplica,
                        (e, r, c) -> {
                            e.globalTables()
                                    .acceptReplica(
                                            ControlPlaneRequests.createTable(
                                                    r.value().createTable()),
                                            r.value().set());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.table("CreateTableReplica", r.tableName(), f));
            case "KumikoDeleteReplica" ->
                dynamodb(
                        name,
                        b -> new Named<>(tableName(b), Operation.Nothing.NOTHING),
                        (e, r, c) -> {
                            e.globalTables().dropReplica(r.tableName());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.table("DeleteTableReplica", r.tableName(), f));
            case "KumikoPublishReplicas" ->
                dynamodb(
                        name,
                        b -> new Named<>(tableName(b), ReplicationWire.replicaSet(b)),
                        (e, r, c) -> {
                            e.globalTables().keep(r.value());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.table("UpdateTable", r.tableName(), f));
            case "KumikoReplicateChanges" ->
                dynamodb(
                        name,
                        b -> new Named<List<ReplicatedChange>>(tableName(b), ReplicationWire.changes(b)),
                        (e, r, c) -> e.globalTables().applyChanges(r.tableName(), r.value()),
                        (g, written, c) -> g.writeNumberField("Written", written),
                        (r, f) -> ResourceChecks.table("PutItem", r.tableName(), f));
            case "KumikoJoinGlobalTable" ->
                dynamodb(
                        name,
                        ReplicationOperations::join,
                        (e, r, c) -> {
                            e.globalTables()
                                    .joinGlobalTable(r.value().set(), r.value().keySignature());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.table("CreateGlobalTable", r.tableName(), f));
            case "KumikoReplicaSettings" ->
                dynamodb(
                        name,
                        b -> new Named<>(tableName(b), Optional.ofNullable(ReplicaSettingsJson.change(b))),
                        (e, r, c) -> e.globalTables()
                                .replicaSettings(r.tableName(), r.value().orElse(null)),
                        (g, s, c) -> {
                            g.writeFieldName("ReplicaSettings");
                            ReplicaSettingsJson.write(g, s);
                        },
                        (r, f) -> ResourceChecks.table(
                                r.value().isPresent() ? "UpdateGlobalTableSettings" : "DescribeGlobalTableSettings",
                                r.tableName(),
                                f));
            default -> throw new IllegalArgumentException("not a replication operation: " + name);
        };
    }

    record CreateReplica(Map<String, Object> createTable, ReplicaSet set) {}

    private static Named<CreateReplica> createReplica(Map<String, Object> b) {
        Map<String, Object> createTable = Fields.object(b, "CreateTable");
        if (createTable == null) {
            throw DynamoException.validation("CreateTable is required");
        }
        return new Named<>(tableName(b), new CreateReplica(createTable, ReplicationWire.replicaSet(b)));
    }

    record Join(ReplicaSet set, String keySignature) {}

    private static Named<Join> join(Map<String, Object> b) {
        String signature = Fields.string(b, "KeySignature");
        if (signature == null || signature.isEmpty()) {
            throw DynamoException.validation("KeySignature is required");
        }
        return new Named<>(tableName(b), new Join(ReplicationWire.replicaSet(b), signature));
    }

    private static String tableName(Map<String, Object> b) {
        String name = Fields.string(b, "TableName");
        if (name == null || name.isEmpty()) {
            throw DynamoException.validation("TableName is required");
        }
        return name;
    }
}
