package dev.kumiko.engine.exchange;

import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The records of export and import jobs, kept in the store so that every engine over it sees them
 * and they survive a restart. The engine stores them as opaque bytes; their format belongs to the
 * server, which writes them.
 *
 * <pre>
 * 0x0B kind(1: 'E' export, 'I' import) id(UTF-8) -> job record
 * </pre>
 */
public final class ExchangeJobs {
    /** Export jobs' records. */
    public static final byte EXPORT = 'E';
    /** Import jobs' records. */
    public static final byte IMPORT = 'I';
    /** How many records one list reads at most: a bound on memory, far above any real use. */
    public static final int LIST_MAX = 10_000;

    private final Store store;

    ExchangeJobs(Store store) {
        this.store = store;
    }

    public void put(byte kind, String id, byte[] record) {
        store.apply(new WriteBatch().put(key(kind, id), record));
    }

    /** The record, or null when there is none. */
    public byte @Nullable [] get(byte kind, String id) {
        return store.get(key(kind, id));
    }

    /** Every record of one kind, in id order (ids begin with their start time, so oldest first). */
    public List<byte[]> list(byte kind) {
        byte[] start = {KeySpace.EXCHANGE_JOBS, kind};
        byte[] end = {KeySpace.EXCHANGE_JOBS, (byte) (kind + 1)};
        List<byte[]> records = new ArrayList<>();
        try (Cursor c = store.scan(start, end, false)) {
            while (c.next() && records.size() < LIST_MAX) {
                records.add(Arrays.copyOf(c.value(), c.value().length));
            }
        }
        return records;
    }

    private static byte[] key(byte kind, String id) {
        byte[] name = id.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[2 + name.length];
        key[0] = KeySpace.EXCHANGE_JOBS;
        key[1] = kind;
        System.arraycopy(name, 0, key, 2, name.length);
        return key;
    }
}
