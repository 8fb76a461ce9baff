package dev.kumiko.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.Cursor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An acknowledged write survives kill -9 of the process, with fsync off (the default). */
@Tag("slow") // starts a JVM and kills it on a timer: crash and timing, left out of -Pquick
class RocksStoreCrashTest {
    static final RocksStoreOptions OPTIONS =
            RocksStoreOptions.defaults().withBlockCacheSizeBytes(8L << 20).withWriteBufferSizeBytes(4L << 20);
    /** More than the child can write before the kill, so the kill lands mid-way. */
    static final int CHILD_BATCHES_MAX = 10_000_000;
    /**
     * The kill comes from a timer, not from the reading loop: a kill sent right after reading an
     * ack always lands at the same point of the child's loop (just after its println), whereas a
     * timer lands anywhere, including inside apply.
     */
    static final long KILL_AFTER_FIRST_ACK_MILLIS = 300;
    /** Fewer acks than this means the child barely ran and the test proved little. */
    static final int ACKS_MIN = 100;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void acknowledgedBatchesSurviveSigkill() throws Exception {
        Path db = dir.resolve("db");
        Path stderr = dir.resolve("child.stderr");
        Process child = startChild(db, stderr);
        int lastAck;
        try {
            lastAck = readAcksThenKill(child);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(lastAck)
                .as("child acknowledged too little; stderr: %s", Files.readString(stderr))
                .isGreaterThanOrEqualTo(ACKS_MIN)
                .isLessThan(CHILD_BATCHES_MAX - 1);
        assertBatchesPresentAndWhole(db, lastAck);
    }

    private Process startChild(Path db, Path stderr) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashWriter.class.getName(),
                        db.toString(),
                        Integer.toString(CHILD_BATCHES_MAX))
                .redirectError(stderr.toFile())
                .start();
    }

    /** Reads to EOF: lines printed before the kill landed are acknowledged writes too. */
    private static int readAcksThenKill(Process child) throws IOException {
        int lastAck = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                assertThat(line).isNotEqualTo("done");
                int ack = Integer.parseInt(line);
                assertThat(ack).isEqualTo(lastAck + 1);
                lastAck = ack;
                if (lastAck == 0) {
                    killLater(child);
                }
            }
        }
        return lastAck;
    }

    /**
     * SIGKILL: no shutdown hooks, no RocksDB close. Through the handle, because
     * Process.destroyForcibly also closes our end of the pipe and the last acks would be lost.
     */
    private static void killLater(Process child) {
        CompletableFuture.delayedExecutor(KILL_AFTER_FIRST_ACK_MILLIS, TimeUnit.MILLISECONDS)
                .execute(() -> child.toHandle().destroyForcibly());
    }

    private static void assertBatchesPresentAndWhole(Path db, int lastAck) {
        try (RocksStore store = RocksStore.open(db, OPTIONS)) {
            TreeSet<Integer> a = indexes(store, "a");
            TreeSet<Integer> b = indexes(store, "b");
            assertThat(a).as("a batch landed half").isEqualTo(b);
            assertThat(a.size()).isGreaterThan(lastAck);
            // Indexes are dense from 0: batches were applied in order, so no gaps either.
            assertThat(a.first()).isZero();
            assertThat(a.last()).isEqualTo(a.size() - 1);
        }
    }

    private static TreeSet<Integer> indexes(RocksStore store, String side) {
        TreeSet<Integer> out = new TreeSet<>();
        byte[] start = (side + "/").getBytes(UTF_8);
        byte[] end = (side + "0").getBytes(UTF_8);
        try (Cursor cursor = store.scan(start, end, false)) {
            while (cursor.next()) {
                out.add(Integer.parseInt(new String(cursor.value(), UTF_8)));
            }
        }
        return out;
    }
}
