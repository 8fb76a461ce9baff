package dev.kumiko.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.kumiko.storage.WriteBatch;
import java.nio.file.Path;

/**
 * The child process of {@link RocksStoreCrashTest}: writes batches and prints each batch's
 * index only after apply returned, so every printed index is an acknowledged write. It never
 * closes the store; the parent kills it with SIGKILL.
 */
public final class CrashWriter {
    private CrashWriter() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        int batches = Integer.parseInt(args[1]);
        RocksStore store = RocksStore.open(dir, RocksStoreCrashTest.OPTIONS);
        for (int i = 0; i < batches; i++) {
            store.apply(batch(i));
            System.out.println(i);
            System.out.flush();
        }
        System.out.println("done");
        System.out.flush();
    }

    /** Two keys per batch so the parent can check the batch landed whole or not at all. */
    static WriteBatch batch(int index) {
        byte[] value = Integer.toString(index).getBytes(UTF_8);
        return new WriteBatch().put(key("a", index), value).put(key("b", index), value);
    }

    static byte[] key(String side, int index) {
        return String.format("%s/%08d", side, index).getBytes(UTF_8);
    }
}
