package dev.kumiko.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.WriteBatch;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The batch built in Java is byte for byte the one RocksDB's own API builds from the same puts,
 * deletes and merges, for random batches with keys and values across the varint length steps.
 */
class SerializedBatchTest {
    private static final int BATCHES = 500;
    private final Random random = new Random(20261124);

    static {
        RocksDB.loadLibrary();
    }

    @Test
    void matchesRocksDbsOwnEncoding() throws RocksDBException {
        for (int i = 0; i < BATCHES; i++) {
            WriteBatch batch = new WriteBatch();
            try (org.rocksdb.WriteBatch expected = new org.rocksdb.WriteBatch()) {
                for (int n = random.nextInt(30) + 1; n > 0; n--) {
                    byte[] key = key();
                    switch (random.nextInt(3)) {
                        case 0 -> {
                            byte[] value = bytes();
                            batch.put(key, value);
                            expected.put(key, value);
                        }
                        case 1 -> {
                            batch.delete(key);
                            expected.delete(key);
                        }
                        default -> {
                            long delta = random.nextLong();
                            batch.add(key, delta);
                            if (delta != 0) {
                                expected.merge(key, dev.kumiko.storage.Counters.encode(delta));
                            }
                        }
                    }
                }
                assertThat(SerializedBatch.of(batch)).isEqualTo(expected.data());
            }
        }
    }

    /** Lengths 0 to 20,000: one-, two- and three-byte varints. */
    /** A key: as bytes(), but never empty, since the store seam refuses an empty key (SeamLimits). */
    private byte[] key() {
        byte[] b = bytes();
        return b.length == 0 ? new byte[] {0} : b;
    }

    private byte[] bytes() {
        int[] lengths = {0, 1, 20, 127, 128, 300, 16383, 16384, 20000};
        byte[] b = new byte[random.nextBoolean() ? random.nextInt(40) : lengths[random.nextInt(lengths.length)]];
        random.nextBytes(b);
        return b;
    }
}
