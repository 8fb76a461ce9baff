package dev.kumiko.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.EngineInternals;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.StreamInput;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The engine's point-in-time reads on a clock the test moves: items as of a millisecond, changes
 * between two, the change log kept past streams' 24 hours while recovery is on (and trimmed once
 * it is off), and a KEYS_ONLY stream that still shows no image although recovery keeps it.
 */
class TableHistoryTest {
    private static final RequestContext CTX = new RequestContext("us-east-1");
    private static final long HOUR_MILLIS = 3_600_000L;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    private Engine open() {
        return Engine.open(
                new MemoryStore(), now::get, EngineSettings.DEFAULTS.withBackupPacing(1000 * HOUR_MILLIS, 0));
    }

    private static void put(Engine e, String pk, String v) {
        e.items()
                .putItem(new ItemRequests.PutItem(
                        "tbl",
                        Map.of("pk", AttributeValue.s(pk), "v", AttributeValue.s(v)),
                        null,
                        null,
                        null,
                        null,
                        ItemRequests.Conditions.NONE));
    }

    private static void delete(Engine e, String pk) {
        e.items()
                .deleteItem(new ItemRequests.DeleteItem(
                        "tbl",
                        Map.of("pk", AttributeValue.s(pk)),
                        null,
                        null,
                        null,
                        null,
                        ItemRequests.Conditions.NONE));
    }

    private static List<String> itemsAt(Engine e, long millis) {
        List<String> out = new ArrayList<>();
        e.backups()
                .history()
                .forEachItemAt(
                        "tbl",
                        millis,
                        i -> out.add(((AttributeValue.S) i.get("pk")).value() + "="
                                + ((AttributeValue.S) i.get("v")).value()));
        out.sort(null);
        return out;
    }

    @Test
    void readsTheTableAsOfAMillisecondAndKeepsTheLogWhileRecoveryIsOn() {
        try (Engine e = open()) {
            e.control()
                    .createTable(
                            CTX,
                            new CreateTableRequest(
                                    "tbl",
                                    List.of(new AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                    List.of(new KeySchemaInput("pk", KeyType.HASH)),
                                    null,
                                    null,
                                    BillingMode.PAY_PER_REQUEST,
                                    null,
                                    new StreamInput(true, StreamViewType.KEYS_ONLY),
                                    null,
                                    null,
                                    null,
                                    null));
            put(e, "a", "0");
            e.backups().continuous().update(new BackupRequests.UpdateContinuousBackups("tbl", true, null));
            now.addAndGet(10);
            put(e, "a", "1");
            put(e, "b", "1");
            long noted = now.addAndGet(10);
            now.addAndGet(10);
            put(e, "a", "2");
            delete(e, "b");
            put(e, "c", "2");
            now.addAndGet(25 * HOUR_MILLIS);
            e.admin().trimStreams();

            assertThat(itemsAt(e, noted)).containsExactly("a=1", "b=1");
            assertThat(itemsAt(e, noted - 20)).containsExactly("a=0");
            assertThat(itemsAt(e, now.get() - 2_000)).containsExactly("a=2", "c=2");
            List<String> changes = new ArrayList<>();
            e.backups()
                    .history()
                    .forEachChangeBetween(
                            "tbl",
                            noted,
                            now.get() - 2_000,
                            c -> changes.add(c.eventName() + " "
                                    + ((AttributeValue.S) c.keys().get("pk")).value()));
            assertThat(changes).containsExactly("MODIFY a", "REMOVE b", "INSERT c");

            int id = EngineInternals.catalog(e).get("tbl").descriptor().id();
            List<ChangeRecord> kept = EngineInternals.changeLog(e)
                    .read(
                            id,
                            1,
                            EngineInternals.changeLog(e)
                                    .visibleBound(EngineInternals.catalog(e)
                                            .get("tbl")
                                            .descriptor()),
                            100,
                            Long.MAX_VALUE)
                    .records();
            assertThat(kept).hasSize(6); // the stream recorded the first put too
            assertThat(kept)
                    .allSatisfy(r -> assertThat(r.newImage())
                            .as("a KEYS_ONLY stream shows no image")
                            .isNull());

            e.backups().continuous().update(new BackupRequests.UpdateContinuousBackups("tbl", false, null));
            assertThat(e.admin().trimStreams()).isEqualTo(6);
        }
    }
}
