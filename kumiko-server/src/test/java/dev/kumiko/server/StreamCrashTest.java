package dev.kumiko.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.EngineInternals;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.read.ReadRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.rocksdb.RocksStore;
import dev.kumiko.rocksdb.RocksStoreOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After kill -9 of a process writing to a table with a stream, and a restart, the stream holds
 * exactly the committed changes: a record for every item that is there (every acknowledged write
 * among them), none for an item that is not, none twice; and numbering goes on without reuse.
 */
@Tag("slow")
class StreamCrashTest {
    static final int WRITES_PER_THREAD = 10_000_000;
    static final long KILL_AFTER_FIRST_ACK_MILLIS = 300;
    static final int ACKS_MIN = 50;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theStreamHoldsExactlyTheCommittedChangesAfterSigkill() throws Exception {
        Path db = dir.resolve("db");
        Path stderr = dir.resolve("child.stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        StreamCrashWriter.class.getName(),
                        db.toString(),
                        Integer.toString(WRITES_PER_THREAD))
                .redirectError(stderr.toFile())
                .start();
        Set<String> acked = new HashSet<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                assertThat(line).isNotEqualTo("done");
                if (acked.isEmpty()) {
                    CompletableFuture.delayedExecutor(KILL_AFTER_FIRST_ACK_MILLIS, TimeUnit.MILLISECONDS)
                            .execute(() -> child.toHandle().destroyForcibly());
                }
                acked.add(line);
            }
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(acked.size())
                .as("child acknowledged too little; stderr: %s", Files.readString(stderr))
                .isGreaterThanOrEqualTo(ACKS_MIN);

        try (Engine engine = Engine.open(RocksStore.open(db, RocksStoreOptions.defaults()))) {
            Set<String> items = items(engine);
            List<ChangeRecord> records = records(engine);
            List<String> recorded = records.stream()
                    .map(r -> ((AttributeValue.S) r.keys().get("pk")).value())
                    .toList();
            assertThat(records).allSatisfy(r -> assertThat(r.eventName()).isEqualTo(ChangeRecord.EventName.INSERT));
            assertThat(recorded).as("no record twice").doesNotHaveDuplicates();
            assertThat(new HashSet<>(recorded))
                    .as("a record for exactly the items committed")
                    .isEqualTo(items);
            assertThat(items).containsAll(acked);

            long last = records.get(records.size() - 1).sequence();
            engine.items()
                    .putItem(new ItemRequests.PutItem(
                            StreamCrashWriter.TABLE,
                            Map.of("pk", AttributeValue.s("after-restart")),
                            null,
                            null,
                            null,
                            null,
                            ItemRequests.Conditions.NONE));
            List<ChangeRecord> after = records(engine);
            assertThat(after).hasSize(records.size() + 1);
            assertThat(after.get(after.size() - 1).sequence()).isGreaterThan(last);
        }
    }

    private static Set<String> items(Engine engine) {
        Set<String> out = new HashSet<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = engine.reads()
                    .scan(new ReadRequests.Scan(
                            new ReadRequests.Common(
                                    StreamCrashWriter.TABLE,
                                    null,
                                    null,
                                    null,
                                    true,
                                    start,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null),
                            null,
                            null));
            page.items().forEach(i -> out.add(((AttributeValue.S) i.get("pk")).value()));
            start = page.lastEvaluatedKey();
        } while (start != null);
        return out;
    }

    private static List<ChangeRecord> records(Engine engine) {
        TableDescriptor d =
                EngineInternals.catalog(engine).get(StreamCrashWriter.TABLE).descriptor();
        List<ChangeRecord> out = new ArrayList<>();
        long from = 1;
        while (true) {
            var page = EngineInternals.changeLog(engine)
                    .read(d.id(), from, EngineInternals.changeLog(engine).visibleBound(d), 1000, Long.MAX_VALUE);
            out.addAll(page.records());
            if (page.records().isEmpty()) {
                return out;
            }
            from = page.records().get(page.records().size() - 1).sequence() + 1;
        }
    }
}
