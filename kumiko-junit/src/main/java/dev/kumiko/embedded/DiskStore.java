package dev.kumiko.embedded;

import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.storage.Store;
import java.nio.file.Path;

/**
 * Opens the RocksDB store. A class of its own so that RocksDB's classes are only looked up by
 * {@code Kumiko.onDisk}: rocksdbjni (~70 MB of natives) is an optional dependency.
 */
final class DiskStore {
    static final String ROCKSDB_COORDINATES = "org.rocksdb:rocksdbjni";

    private DiskStore() {}

    static Store open(Path dir) {
        try {
            return RocksStore.open(dir, RocksStoreOptions.defaults());
        } catch (NoClassDefFoundError e) {
            throw new IllegalStateException(
                    "Kumiko.onDisk needs " + ROCKSDB_COORDINATES + " on the class path "
                            + "(an optional dependency of kumiko-junit); add it, or use Kumiko.inMemory()",
                    e);
        }
    }
}
