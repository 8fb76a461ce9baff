package dev.kumiko.engine.backup;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keys of the backup space, all under {@link KeySpace#BACKUPS}:
 *
 * <pre>
 * 0x09 0x01 backupId(UTF-8)              -> on-demand backup record ({@link BackupRecord})
 * 0x09 0x02 copyId(4) itemKeyRest        -> a copied item, in item-codec form
 * 0x09 0x03 tableId(4) snapshotMillis(8) -> a point-in-time recovery base copy ({@link BackupRecord})
 * 0x09 0x04 targetTableId(4)             -> a restore job ({@link RestoreJob})
 * </pre>
 *
 * A copied item's key is its table key without the space and table id ("rest": hash, partition key,
 * sort key), so a copy keeps the table's order and a restore rebuilds the key under a new table id.
 */
final class BackupKeys {
    static final byte BACKUP = 0x01;
    static final byte COPY = 0x02;
    static final byte BASE = 0x03;
    static final byte RESTORE = 0x04;
    /** An item key's space byte and table id, before the part a copy keeps. */
    static final int ITEM_KEY_PREFIX_BYTES = 5;

    private BackupKeys() {}

    static byte[] backup(String backupId) {
        byte[] id = backupId.getBytes(StandardCharsets.UTF_8);
        return new ByteSink(2 + id.length)
                .put(KeySpace.BACKUPS)
                .put(BACKUP)
                .put(id)
                .toArray();
    }

    static byte[] backupsStart() {
        return new byte[] {KeySpace.BACKUPS, BACKUP};
    }

    static byte[] backupsEnd() {
        return new byte[] {KeySpace.BACKUPS, BACKUP + 1};
    }

    static byte[] copyStart(int copyId) {
        return new ByteSink(6)
                .put(KeySpace.BACKUPS)
                .put(COPY)
                .putIntBigEndian(copyId)
                .toArray();
    }

    static byte[] copyEnd(int copyId) {
        return copyStart(copyId + 1);
    }

    /** The copy key of an item whose table key is itemKey. */
    static byte[] copyItem(int copyId, byte[] itemKey) {
        return new ByteSink(6 + itemKey.length - ITEM_KEY_PREFIX_BYTES)
                .put(KeySpace.BACKUPS)
                .put(COPY)
                .putIntBigEndian(copyId)
                .put(Arrays.copyOfRange(itemKey, ITEM_KEY_PREFIX_BYTES, itemKey.length))
                .toArray();
    }

    /** The part of a copy key after the copy id: the item key's rest. */
    static byte[] restOfCopyKey(byte[] copyKey) {
        return Arrays.copyOfRange(copyKey, 6, copyKey.length);
    }

    /** The rest of a table item key (after space and table id). */
    static byte[] restOfItemKey(byte[] itemKey) {
        return Arrays.copyOfRange(itemKey, ITEM_KEY_PREFIX_BYTES, itemKey.length);
    }

    /** A table item key from its rest, under tableId. */
    static byte[] itemKey(int tableId, byte[] rest) {
        return new ByteSink(ITEM_KEY_PREFIX_BYTES + rest.length)
                .put(KeySpace.ITEMS)
                .putIntBigEndian(tableId)
                .put(rest)
                .toArray();
    }

    static byte[] base(int tableId, long snapshotMillis) {
        return new ByteSink(14)
                .put(KeySpace.BACKUPS)
                .put(BASE)
                .putIntBigEndian(tableId)
                .putLongBigEndian(snapshotMillis)
                .toArray();
    }

    static byte[] basesStart(int tableId) {
        return new ByteSink(6)
                .put(KeySpace.BACKUPS)
                .put(BASE)
                .putIntBigEndian(tableId)
                .toArray();
    }

    static byte[] basesEnd(int tableId) {
        return basesStart(tableId + 1);
    }

    static byte[] allBasesStart() {
        return new byte[] {KeySpace.BACKUPS, BASE};
    }

    static byte[] allBasesEnd() {
        return new byte[] {KeySpace.BACKUPS, BASE + 1};
    }

    static byte[] restore(int targetTableId) {
        return new ByteSink(6)
                .put(KeySpace.BACKUPS)
                .put(RESTORE)
                .putIntBigEndian(targetTableId)
                .toArray();
    }

    static byte[] restoresStart() {
        return new byte[] {KeySpace.BACKUPS, RESTORE};
    }

    static byte[] restoresEnd() {
        return new byte[] {KeySpace.BACKUPS, RESTORE + 1};
    }
}
