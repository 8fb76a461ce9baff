package dev.kumiko.catalog;

import dev.kumiko.model.AttributeType;
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

/** Stores table descriptors in the catalog key space; a version byte leads for later changes. */
final class DescriptorCodec {
    private static final int FORMAT_VERSION = 1;

    private DescriptorCodec() {}

    static byte[] encode(TableDescriptor t) {
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
            out.writeUTF(t.billingMode());
            writeThroughput(out, t.throughput());
            out.writeLong(t.billingModeChangeEpochMillis());
            writeIndexes(out, t.localSecondaryIndexes());
            writeIndexes(out, t.globalSecondaryIndexes());
            out.writeBoolean(t.stream().enabled());
            writeNullable(out, t.stream().viewType());
            writeNullable(out, t.stream().label());
            out.writeBoolean(t.sse().enabled());
            writeNullable(out, t.sse().sseType());
            writeNullable(out, t.sse().kmsMasterKeyId());
            out.writeUTF(t.tableClass());
            out.writeBoolean(t.deletionProtectionEnabled());
            out.writeInt(t.tags().size());
            for (Map.Entry<String, String> e : t.tags().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static TableDescriptor decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readByte();
            if (version != FORMAT_VERSION) {
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
            String billingMode = in.readUTF();
            Throughput throughput = readThroughput(in);
            long billingChange = in.readLong();
            List<IndexDescriptor> lsis = readIndexes(in);
            List<IndexDescriptor> gsis = readIndexes(in);
            StreamSettings stream = new StreamSettings(in.readBoolean(), readNullable(in), readNullable(in));
            SseSettings sse = new SseSettings(in.readBoolean(), readNullable(in), readNullable(in));
            String tableClass = in.readUTF();
            boolean deletionProtection = in.readBoolean();
            int tagCount = in.readInt();
            Map<String, String> tags = new LinkedHashMap<>();
            for (int i = 0; i < tagCount; i++) {
                tags.put(in.readUTF(), in.readUTF());
            }
            return new TableDescriptor(id, name, tableId, created, keySchema, List.copyOf(definitions), billingMode,
                    throughput, billingChange, lsis, gsis, stream, sse, tableClass, deletionProtection,
                    Map.copyOf(tags));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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

    private static void writeIndexes(DataOutputStream out, List<IndexDescriptor> indexes) throws IOException {
        out.writeInt(indexes.size());
        for (IndexDescriptor x : indexes) {
            out.writeInt(x.id());
            out.writeUTF(x.indexName());
            out.writeBoolean(x.global());
            writeKeySchema(out, x.keySchema());
            out.writeUTF(x.projection().projectionType());
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
            String projectionType = in.readUTF();
            int nonKeyCount = in.readInt();
            List<String> nonKey = null;
            if (nonKeyCount >= 0) {
                nonKey = new ArrayList<>(nonKeyCount);
                for (int j = 0; j < nonKeyCount; j++) {
                    nonKey.add(in.readUTF());
                }
                nonKey = List.copyOf(nonKey);
            }
            indexes.add(new IndexDescriptor(id, name, global, keySchema, new Projection(projectionType, nonKey),
                    readThroughput(in), in.readUTF()));
        }
        return List.copyOf(indexes);
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
