package dev.kumiko.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

class NativeLibraryTest {

    @Test
    void keepsAWholeCopyUnderTheNameRocksDbLooksUpOnTheLibraryPath(@TempDir Path dir) throws Exception {
        Path cache = dir.resolve("native");
        NativeLibrary.keepCopy(cache);

        String name = Environment.getJniLibraryFileName("rocksdb");
        byte[] expected;
        try (InputStream in = RocksDB.class.getResourceAsStream("/" + name)) {
            expected = in.readAllBytes();
        }
        assertArrayEquals(expected, Files.readAllBytes(cache.resolve(name)));
        try (var files = Files.list(cache)) {
            assertEquals(1, files.count(), "no partial copy is left behind");
        }
    }

    @Test
    void leavesAnExistingCopyAlone(@TempDir Path dir) throws Exception {
        String name = Environment.getJniLibraryFileName("rocksdb");
        Files.writeString(dir.resolve(name), "kept");
        NativeLibrary.keepCopy(dir);
        assertEquals("kept", Files.readString(dir.resolve(name)));
    }
}
