package dev.kumiko.engine.backup;

import dev.kumiko.catalog.DescriptorCodec;
import dev.kumiko.catalog.TableDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One copy of a table's items as of one moment, kept in the store: an on-demand backup (kind USER)
 * or a base copy of point-in-time recovery (kind BASE). {@code table} is the table's descriptor at
 * that moment (key schema, indexes, settings a restore starts from). A base also records
 * {@code sequenceFloor}: every change-log record below it is in the copy, so recovery replays from
 * there; {@code startedMillis} is when that floor was read (records from then on are kept).
 *
 * <p>{@code owner} is the engine copying it while the status is CREATING; a copy whose engine is
 * gone cannot be finished (its store snapshot went with it) and becomes FAILED.
 */
record BackupRecord(
        String id,
        Kind kind,
        Status status,
        String name,
        String region,
        TableDescriptor table,
        long createdMillis,
        long startedMillis,
        long sequenceFloor,
        int copyId,
        long itemCount,
        long sizeBytes,
        String owner) {
    private static final int FORMAT_VERSION = 1;

    enum Kind {
        USER,
        BASE
    }

    /** DynamoDB's BackupStatus, and FAILED for a copy that could not finish (never shown: not found). */
    enum Status {
        CREATING,
        AVAILABLE,
        DELETED,
        FAILED
    }

    BackupRecord withStatus(Status s) {
        return new BackupRecord(
                id,
                kind,
                s,
                name,
                region,
                table,
                createdMillis,
                startedMillis,
                sequenceFloor,
                copyId,
                itemCount,
                sizeBytes,
                owner);
    }

    BackupRecord completed(long items, long bytes) {
        return new BackupRecord(
                id,
                kind,
                Status.AVAILABLE,
                name,
                region,
                table,
                createdMillis,
                startedMillis,
                sequenceFloor,
                copyId,
                items,
                bytes,
                owner);
    }

    String tableArn() {
        return Arns.table(region, table.tableName());
    }

    String arn() {
        return tableArn() + "/backup/" + id;
    }

    @SuppressWarnings("EnumOrdinal") // the ordinals are the stored format; StoredBackupEnumsTest pins them
    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeUTF(id);
            out.writeByte(kind.ordinal());
            out.writeByte(status.ordinal());
            out.writeUTF(name);
            out.writeUTF(region);
            byte[] d = DescriptorCodec.encode(table);
            out.writeInt(d.length);
            out.write(d);
            out.writeLong(createdMillis);
            out.writeLong(startedMillis);
            out.writeLong(sequenceFloor);
            out.writeInt(copyId);
            out.writeLong(itemCount);
            out.writeLong(sizeBytes);
            out.writeUTF(owner);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static BackupRecord decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readByte();
            if (version != FORMAT_VERSION) {
                throw new IllegalStateException("unknown backup record format version " + version);
            }
            String id = in.readUTF();
            Kind kind = Kind.values()[in.readByte()];
            Status status = Status.values()[in.readByte()];
            String name = in.readUTF();
            String region = in.readUTF();
            byte[] d = new byte[in.readInt()];
            in.readFully(d);
            return new BackupRecord(
                    id,
                    kind,
                    status,
                    name,
                    region,
                    DescriptorCodec.decode(d),
                    in.readLong(),
                    in.readLong(),
                    in.readLong(),
                    in.readInt(),
                    in.readLong(),
                    in.readLong(),
                    in.readUTF());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
