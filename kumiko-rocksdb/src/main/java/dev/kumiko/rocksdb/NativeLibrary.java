package dev.kumiko.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library, and keeps a copy of it in a directory the launcher puts on
 * {@code java.library.path}.
 *
 * <p>Why: without a copy on the library path, RocksDB inflates its 14 MB library from the jar into
 * a temporary file on every start, which was about a third of the server's start on a 1M-item data
 * directory (docs/benchmarks.md, "Opening a large RocksDB directory"). {@code bin/kumiko} names the directory
 * with {@value #CACHE_DIR_PROPERTY} and puts it on {@code java.library.path}; the first start
 * writes the copy (in the background, after loading), every later start maps it directly. The
 * launcher also sets {@code ROCKSDB_MUSL_LIBC}, which spares RocksDB a shell process that asks
 * {@code ldd} which C library the machine has.
 */
final class NativeLibrary {
    /** The directory for the copy; no copy is kept when unset (embedded use, tests). */
    static final String CACHE_DIR_PROPERTY = "kumiko.rocksdb.native-dir";

    private NativeLibrary() {}

    @SuppressWarnings("ThreadPriorityCheck")
    static void load() {
        RocksDB.loadLibrary();
        String dir = System.getProperty(CACHE_DIR_PROPERTY);
        if (dir == null || dir.isEmpty()) {
            return;
        }
        Thread copier = new Thread(() -> keepCopy(Path.of(dir)), "kumiko-rocksdb-native-copy");
        copier.setDaemon(true);
        copier.setPriority(Thread.MIN_PRIORITY); // a hint only: the copy must not compete with the start
        copier.start();
    }

    /**
     * Copies the jar's library for this platform into dir, under the name RocksDB looks up on the
     * library path. Written to a temporary file and renamed, so a start never sees half a copy. A
     * failure only means the next start inflates the library again, so it is ignored.
     */
    static void keepCopy(Path dir) {
        String name = Environment.getJniLibraryFileName("rocksdb");
        Path target = dir.resolve(name);
        if (Files.exists(target)) {
            return;
        }
        try (InputStream library = RocksDB.class.getResourceAsStream("/" + name)) {
            if (library == null) {
                return;
            }
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, name, ".partial");
            try {
                Files.copy(library, partial, StandardCopyOption.REPLACE_EXISTING);
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
        } catch (IOException | RuntimeException e) {
            // Only a start-time cost: the next start inflates the library from the jar as before.
        }
    }
}
