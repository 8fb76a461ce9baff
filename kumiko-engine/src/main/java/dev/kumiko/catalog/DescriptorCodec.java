package dev.kumiko.catalog;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.SseType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.model.TableClass;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Stores table descriptors in the catalog key space; a version byte leads for later changes.
 * Version 2 added the streams' epochs, version 3 Time to Live, version 4 the throughput's change
 * history, point-in-time recovery and the restore summary (after the descriptor's last field, so
 * that versions 1-3 decode unchanged), version 5 the Contributor Insights settings (after those, so
 * that versions 1-4 decode unchanged), version 6 the Kinesis streaming destinations (last, likewise;
 * a store written by a version cannot be read by a build from before it).
 */
public final class DescriptorCodec {
    private static final int FORMAT_VERSION = 6;

    private DescriptorCodec() {}

    public static byte[] encode(TableDescriptor t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeInt(t.id());
            out.writeUTF(t.tableName());
            out.writeUTF(t.tableId());
            out.writeLong(t.creationEpochMillis());
            writeKeySchema(out, t.keySchema());
            out.writeInt(t.attributeDefinitions().size());
            for (AttributeDefinition d : t.attributeDefinitions()) {
                out.writeUTF(d.attributeName());
                out.writeUTF(d.attributeType().name());
            }
            out.writeUTF(t.billingMode().name());
            writeThroughput(out, t.throughput());
            out.writeLong(t.billingModeChangeEpochMillis());
            writeIndexes(out, t.localSecondaryIndexes());
            writeIndexes(out, t.globalSecondaryIndexes());
            out.writeBoolean(t.stream().enabled());
            writeNullable(
                    out,
                    t.stream().viewType() == null ? null : t.stream().viewType().name());
            writeNullable(out, t.stream().label());
            writeEpochs(out, t.stream().epochs());
            out.writeBoolean(t.sse().enabled());
            writeNullable(
                    out, t.sse().sseType() == null ? null : t.sse().sseType().name());
            writeNullable(out, t.sse().kmsMasterKeyId());
            out.writeUTF(t.tableClass().name());
            out.writeBoolean(t.deletionProtectionEnabled());
            out.writeInt(t.tags().size());
            for (Map.Entry<String, String> e : t.tags().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeBoolean(t.timeToLive().enabled());
            writeNullable(out, t.timeToLive().attributeName());
            writeHistory(out, t.throughput());
            for (IndexDescriptor x : t.globalSecondaryIndexes()) {
                writeHistory(out, x.throughput());
            }
            writeRecovery(out, t.recovery());
            writeInsights(out, t.contributorInsights());
            writeKinesis(out, t.kinesis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static TableDescriptor decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readByte();
            if (version < 1 || version > FORMAT_VERSION) {
                throw new IllegalStateException("unknown catalog format version " + version);
            }
            int id = in.readInt();
            String name = in.readUTF();
            String tableId = in.readUTF();
            long created = in.readLong();
            List<KeySchemaElement> keySchema = readKeySchema(in);
            int defs = in.readInt();
            List<AttributeDefinition> definitions = new ArrayList<>(defs);
            for (int i = 0; i < defs; i++) {
                definitions.add(new AttributeDefinition(in.readUTF(), AttributeType.valueOf(in.readUTF())));
            }
            BillingMode billingMode = BillingMode.valueOf(in.readUTF());
            Throughput throughput = readThroughput(in);
            long billingChange = in.readLong();
            List<IndexDescriptor> lsis = readIndexes(in);
            List<IndexDescriptor> gsis = readIndexes(in);
            StreamSettings stream = readStream(in, version);
            boolean sseEnabled = in.readBoolean();
            String sseType = readNullable(in);
            SseSettings sse = new SseSettings(sseEnabled, sseType(sseType), readNullable(in));
            TableClass tableClass = TableClass.valueOf(in.readUTF());
            boolean deletionProtection = in.readBoolean();
            int tagCount = in.readInt();
            Map<String, String> tags = new LinkedHashMap<>();
            for (int i = 0; i < tagCount; i++) {
                tags.put(in.readUTF(), in.readUTF());
            }
            TimeToLiveSettings ttl = version < 3
                    ? TimeToLiveSettings.DISABLED
                    : new TimeToLiveSettings(in.readBoolean(), readNullable(in));
            if (version >= 4) {
                throughput = readHistory(in, throughput);
                gsis = readHistories(in, gsis);
            }
            return new TableDescriptor(
                    id,
                    name,
                    tableId,
                    created,
                    keySchema,
                    List.copyOf(definitions),
                    billingMode,
                    throughput,
                    billingChange,
                    lsis,
                    gsis,
                    stream,
                    sse,
                    tableClass,
                    deletionProtection,
                    Map.copyOf(tags),
                    ttl,
                    version < 4 ? RecoverySettings.NONE : readRecovery(in),
                    version < 5 ? ContributorInsightsSettings.NONE : readInsights(in),
                    version < 6 ? KinesisDestinations.NONE : readKinesis(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeRecovery(DataOutputStream out, RecoverySettings r) throws IOException {
        out.writeBoolean(r.pitrEnabled());
        out.writeInt(r.recoveryPeriodInDays());
        out.writeLong(r.pitrEnabledMillis());
        out.writeBoolean(r.restore() != null);
        if (r.restore() != null) {
            writeNullable(out, r.restore().sourceBackupArn());
            writeNullable(out, r.restore().sourceTableArn());
            out.writeLong(r.restore().restoreDateTimeMillis());
            out.writeBoolean(r.restore().restoreInProgress());
        }
    }

    private static RecoverySettings readRecovery(DataInputStream in) throws IOException {
        boolean pitr = in.readBoolean();
        int days = in.readInt();
        long enabledMillis = in.readLong();
        RecoverySettings.RestoreSummary restore = !in.readBoolean()
                ? null
                : new RecoverySettings.RestoreSummary(
                        readNullable(in), readNullable(in), in.readLong(), in.readBoolean());
        return new RecoverySettings(pitr, days, enabledMillis, restore);
    }

    private static void writeInsights(DataOutputStream out, ContributorInsightsSettings s) throws IOException {
        out.writeInt(s.resources().size());
        for (Map.Entry<String, ContributorInsightsSettings.Resource> e :
                s.resources().entrySet()) {
            ContributorInsightsSettings.Resource r = e.getValue();
            out.writeUTF(e.getKey());
            out.writeInt(r.ownerId());
            out.writeBoolean(r.enabled());
            out.writeUTF(r.mode().name());
            out.writeLong(r.lastUpdateMillis());
            out.writeLong(r.rulesCreatedMillis());
        }
    }

    private static ContributorInsightsSettings readInsights(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n == 0) {
            return ContributorInsightsSettings.NONE;
        }
        Map<String, ContributorInsightsSettings.Resource> resources = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            resources.put(
                    name,
                    new ContributorInsightsSettings.Resource(
                            in.readInt(),
                            in.readBoolean(),
                            ContributorInsightsSettings.Mode.valueOf(in.readUTF()),
                            in.readLong(),
                            in.readLong()));
        }
        return new ContributorInsightsSettings(resources);
    }

    private static void writeKinesis(DataOutputStream out, KinesisDestinations k) throws IOException {
        out.writeInt(k.destinations().size());
        for (KinesisDestinations.Destination d : k.destinations()) {
            out.writeUTF(d.streamArn());
            out.writeUTF(d.status().name());
            out.writeUTF(d.precision().name());
            writeNullable(out, d.description());
            out.writeLong(d.fromSequence());
            out.writeLong(d.updatedMillis());
        }
    }

    private static KinesisDestinations readKinesis(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > KinesisDestinations.DESTINATIONS_MAX) {
            throw new IllegalStateException("a table with " + n + " Kinesis destinations");
        }
        if (n == 0) {
            return KinesisDestinations.NONE;
        }
        List<KinesisDestinations.Destination> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new KinesisDestinations.Destination(
                    in.readUTF(),
                    KinesisDestinations.Status.valueOf(in.readUTF()),
                    KinesisDestinations.Precision.valueOf(in.readUTF()),
                    readNullable(in),
                    in.readLong(),
                    in.readLong()));
        }
        return new KinesisDestinations(out);
    }

    private static void writeKeySchema(DataOutputStream out, List<KeySchemaElement> keySchema) throws IOException {
        out.writeInt(keySchema.size());
        for (KeySchemaElement k : keySchema) {
            out.writeUTF(k.attributeName());
            out.writeUTF(k.keyType().name());
        }
    }

    private static List<KeySchemaElement> readKeySchema(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<KeySchemaElement> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(new KeySchemaElement(in.readUTF(), KeyType.valueOf(in.readUTF())));
        }
        return List.copyOf(keys);
    }

    private static void writeThroughput(DataOutputStream out, Throughput t) throws IOException {
        out.writeLong(t.readCapacityUnits());
        out.writeLong(t.writeCapacityUnits());
    }

    private static Throughput readThroughput(DataInputStream in) throws IOException {
        return new Throughput(in.readLong(), in.readLong());
    }

    private static void writeHistory(DataOutputStream out, Throughput t) throws IOException {
        out.writeLong(t.lastIncreaseEpochMillis());
        out.writeLong(t.lastDecreaseEpochMillis());
        out.writeInt(t.decreasesOnLastDecreaseDay());
    }

    private static Throughput readHistory(DataInputStream in, Throughput units) throws IOException {
        return new Throughput(
                units.readCapacityUnits(), units.writeCapacityUnits(), in.readLong(), in.readLong(), in.readInt());
    }

    private static List<IndexDescriptor> readHistories(DataInputStream in, List<IndexDescriptor> gsis)
            throws IOException {
        List<IndexDescriptor> out = new ArrayList<>(gsis.size());
        for (IndexDescriptor x : gsis) {
            out.add(x.withThroughput(readHistory(in, x.throughput())));
        }
        return List.copyOf(out);
    }

    private static void writeIndexes(DataOutputStream out, List<IndexDescriptor> indexes) throws IOException {
        out.writeInt(indexes.size());
        for (IndexDescriptor x : indexes) {
            out.writeInt(x.id());
            out.writeUTF(x.indexName());
            out.writeBoolean(x.global());
            writeKeySchema(out, x.keySchema());
            out.writeUTF(x.projection().projectionType().name());
            List<String> nonKey = x.projection().nonKeyAttributes();
            out.writeInt(nonKey == null ? -1 : nonKey.size());
            if (nonKey != null) {
                for (String a : nonKey) {
                    out.writeUTF(a);
                }
            }
            writeThroughput(out, x.throughput());
            out.writeUTF(x.indexStatus());
        }
    }

    private static List<IndexDescriptor> readIndexes(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<IndexDescriptor> indexes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int id = in.readInt();
            String name = in.readUTF();
            boolean global = in.readBoolean();
            List<KeySchemaElement> keySchema = readKeySchema(in);
            ProjectionType projectionType = ProjectionType.valueOf(in.readUTF());
            int nonKeyCount = in.readInt();
            List<String> nonKey = null;
            if (nonKeyCount >= 0) {
                nonKey = new ArrayList<>(nonKeyCount);
                for (int j = 0; j < nonKeyCount; j++) {
                    nonKey.add(in.readUTF());
                }
                nonKey = List.copyOf(nonKey);
            }
            indexes.add(new IndexDescriptor(
                    id,
                    name,
                    global,
                    keySchema,
                    new Projection(projectionType, nonKey),
                    readThroughput(in),
                    in.readUTF()));
        }
        return List.copyOf(indexes);
    }

    private static void writeEpochs(DataOutputStream out, List<StreamEpoch> epochs) throws IOException {
        out.writeInt(epochs.size());
        for (StreamEpoch e : epochs) {
            out.writeUTF(e.label());
            out.writeUTF(e.viewType().name());
            out.writeLong(e.createdMillis());
            out.writeLong(e.disabledMillis());
            out.writeLong(e.endSequence());
            out.writeInt(e.shards().size());
            for (StreamEpoch.ShardSpan s : e.shards()) {
                out.writeLong(s.startSequence());
                out.writeLong(s.createdMillis());
            }
        }
    }

    private static StreamSettings readStream(DataInputStream in, int version) throws IOException {
        boolean enabled = in.readBoolean();
        String viewName = readNullable(in);
        StreamViewType viewType = viewName == null ? null : StreamViewType.valueOf(viewName);
        String label = readNullable(in);
        if (version == 1) {
            // Before the change log existed: an enabled stream has no records yet and starts at 1.
            if (!enabled) {
                return new StreamSettings(false, null, label, List.of());
            }
            // An enabled stream was always stored with its label and view type.
            String enabledLabel = Objects.requireNonNull(label, "enabled stream without a label");
            StreamViewType enabledView = Objects.requireNonNull(viewType, "enabled stream without a view type");
            long created = StreamLabels.epochMillisOf(enabledLabel);
            return new StreamSettings(
                    true,
                    enabledView,
                    enabledLabel,
                    List.of(new StreamEpoch(
                            enabledLabel, enabledView, created, 0, 0, List.of(new StreamEpoch.ShardSpan(1, created)))));
        }
        int n = in.readInt();
        List<StreamEpoch> epochs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String l = in.readUTF();
            StreamViewType v = StreamViewType.valueOf(in.readUTF());
            long created = in.readLong();
            long disabled = in.readLong();
            long end = in.readLong();
            int shardCount = in.readInt();
            List<StreamEpoch.ShardSpan> shards = new ArrayList<>(shardCount);
            for (int j = 0; j < shardCount; j++) {
                shards.add(new StreamEpoch.ShardSpan(in.readLong(), in.readLong()));
            }
            epochs.add(new StreamEpoch(l, v, created, disabled, end, shards));
        }
        return new StreamSettings(enabled, viewType, label, epochs);
    }

    private static void writeNullable(DataOutputStream out, @Nullable String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    /**
     * A stored SSEType. Restores once kept an override's SSEType unchecked, so a data directory may
     * hold another word; it reads as absent (DescribeTable then shows no type), not as a failure to open.
     */
    private static @Nullable SseType sseType(@Nullable String stored) {
        for (SseType t : SseType.values()) {
            if (t.name().equals(stored)) {
                return t;
            }
        }
        return null;
    }

    private static @Nullable String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
