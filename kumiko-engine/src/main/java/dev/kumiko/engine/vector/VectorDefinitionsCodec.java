package dev.kumiko.engine.vector;

import dev.kumiko.catalog.Projection;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.ProjectionType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Stores a table's vector index definitions in one record of the meta space, beside the table's
 * descriptor rather than in it: {@code 0x05 "vector-indexes/" tableId(4)}. A version byte leads.
 */
final class VectorDefinitionsCodec {
    private static final int FORMAT_VERSION = 1;
    static final byte[] PREFIX = prefix();

    private VectorDefinitionsCodec() {}

    private static byte[] prefix() {
        byte[] name = "vector-indexes/".getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[1 + name.length];
        out[0] = KeySpace.META;
        System.arraycopy(name, 0, out, 1, name.length);
        return out;
    }

    static byte[] key(int tableId) {
        return ByteBuffer.allocate(PREFIX.length + 4)
                .put(PREFIX)
                .putInt(tableId)
                .array();
    }

    static byte[] prefixEnd() {
        byte[] end = Arrays.copyOf(PREFIX, PREFIX.length);
        end[end.length - 1]++;
        return end;
    }

    static int tableIdOf(byte[] key) {
        return ByteBuffer.wrap(key, PREFIX.length, 4).getInt();
    }

    static byte[] encode(List<VectorIndexDefinition> defs) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeInt(defs.size());
            for (VectorIndexDefinition d : defs) {
                out.writeUTF(d.indexName());
                out.writeUTF(d.vectorAttribute());
                out.writeInt(d.dimensions());
                out.writeUTF(d.distance().name());
                out.writeInt(d.searchSchema().size());
                for (SearchSchemaElement e : d.searchSchema()) {
                    out.writeUTF(e.attributeName());
                    out.writeUTF(e.type().name());
                }
                out.writeUTF(d.projection().projectionType().name());
                List<String> nonKey = d.projection().nonKeyAttributes();
                out.writeInt(nonKey == null ? -1 : nonKey.size());
                if (nonKey != null) {
                    for (String n : nonKey) {
                        out.writeUTF(n);
                    }
                }
                out.writeUTF(d.status());
                out.writeBoolean(d.backfilling());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<VectorIndexDefinition> decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readByte();
            if (version != FORMAT_VERSION) {
                throw new IllegalStateException("unknown vector index record version " + version);
            }
            int count = in.readInt();
            List<VectorIndexDefinition> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                String attribute = in.readUTF();
                int dimensions = in.readInt();
                VectorDistance distance = VectorDistance.valueOf(in.readUTF());
                int schemaCount = in.readInt();
                List<SearchSchemaElement> schema = new ArrayList<>(schemaCount);
                for (int s = 0; s < schemaCount; s++) {
                    schema.add(new SearchSchemaElement(in.readUTF(), SearchSchemaElement.Type.valueOf(in.readUTF())));
                }
                ProjectionType type = ProjectionType.valueOf(in.readUTF());
                int nonKeyCount = in.readInt();
                List<String> nonKey = null;
                if (nonKeyCount >= 0) {
                    nonKey = new ArrayList<>(nonKeyCount);
                    for (int n = 0; n < nonKeyCount; n++) {
                        nonKey.add(in.readUTF());
                    }
                }
                out.add(new VectorIndexDefinition(
                        name,
                        attribute,
                        dimensions,
                        distance,
                        schema,
                        new Projection(type, nonKey),
                        in.readUTF(),
                        in.readBoolean()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
