package dev.kumiko.bench;

import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The two stores, as the server opens them: MemoryStore, and RocksStore without fsync in a temp dir. */
final class Stores {
    private Stores() {}

    /** kind is "memory" or "rocksdb"; dir receives the RocksDB directory (null for memory). */
    static Store open(String kind, Path[] dir) {
        switch (kind) {
            case "memory":
                dir[0] = null;
                return new MemoryStore();
            case "rocksdb":
                try {
                    dir[0] = Files.createTempDirectory("kumiko-bench-");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return RocksStore.open(dir[0], RocksStoreOptions.defaults().withFsync(false));
            default:
                throw new IllegalArgumentException("store must be memory or rocksdb: " + kind);
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
