package dev.kumiko.engine.backup;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jspecify.annotations.Nullable;

/**
 * A restore writing a new table, kept in the store until it is done, so that a restart resumes it.
 * The source is a backup ({@code backupId}) or a table's history ({@code sourceTableId} at
 * {@code pointMillis}). {@code resumeAfter} is the rest of the last item key written (null: from the
 * start); items come in key order, so a resumed restore skips what is already there and writes the
 * rest (writing an item again is harmless: the same item replaces itself).
 */
record RestoreJob(
        int targetTableId,
        String targetTableName,
        @Nullable String backupId,
        int sourceTableId,
        long pointMillis,
        byte @Nullable [] resumeAfter,
        long itemsWritten,
        String owner,
        long heartbeatMillis) {
    private static final int FORMAT_VERSION = 1;

    RestoreJob progressed(byte @Nullable [] after, long written, long nowMillis) {
        return new RestoreJob(
                targetTableId, targetTableName, backupId, sourceTableId, pointMillis, after, written, owner, nowMillis);
    }

    RestoreJob ownedBy(String newOwner, long nowMillis) {
        return new RestoreJob(
                targetTableId,
                targetTableName,
                backupId,
                sourceTableId,
                pointMillis,
                resumeAfter,
                itemsWritten,
                newOwner,
                nowMillis);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            out.writeInt(targetTableId);
            out.writeUTF(targetTableName);
            out.writeUTF(backupId == null ? "" : backupId);
            out.writeInt(sourceTableId);
            out.writeLong(pointMillis);
            out.writeInt(resumeAfter == null ? -1 : resumeAfter.length);
            if (resumeAfter != null) {
                out.write(resumeAfter);
            }
            out.writeLong(itemsWritten);
            out.writeUTF(owner);
            out.writeLong(heartbeatMillis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static RestoreJob decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readByte();
            if (version != FORMAT_VERSION) {
                throw new IllegalStateException("unknown restore job format version " + version);
            }
            int target = in.readInt();
            String name = in.readUTF();
            String backup = in.readUTF();
            int source = in.readInt();
            long point = in.readLong();
            int n = in.readInt();
            byte[] after = null;
            if (n >= 0) {
                after = new byte[n];
                in.readFully(after);
            }
            return new RestoreJob(
                    target,
                    name,
                    backup.isEmpty() ? null : backup,
                    source,
                    point,
                    after,
                    in.readLong(),
                    in.readUTF(),
                    in.readLong());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
