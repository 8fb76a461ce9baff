package dev.kumiko.engine.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.EngineInternals;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The expiry rule, and the background sweep's bounded steps over a large table. */
class TimeToLiveSweeperTest {
    private static final long NOW_MILLIS = 1_700_000_000_000L;

    @Test
    void expiryFollowsTheDeveloperGuide() {
        String a = "ttl";
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.n(1_699_999_999L)), a, NOW_MILLIS))
                .isTrue();
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.n("1699999999.999")), a, NOW_MILLIS))
                .isTrue();
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.n(1_700_000_000L)), a, NOW_MILLIS))
                .as("not before now")
                .isFalse();
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.s("1")), a, NOW_MILLIS))
                .as("not a number")
                .isFalse();
        assertThat(Expiry.isExpired(Map.of("other", AttributeValue.n(1)), a, NOW_MILLIS))
                .isFalse();
        long fiveYearsSeconds = Expiry.IGNORED_AFTER_MILLIS / 1000;
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.n(NOW_MILLIS / 1000 - fiveYearsSeconds)), a, NOW_MILLIS))
                .as("five years old or more: ignored")
                .isFalse();
        assertThat(Expiry.isExpired(
                        Map.of(a, AttributeValue.n(NOW_MILLIS / 1000 - fiveYearsSeconds + 1)), a, NOW_MILLIS))
                .isTrue();
        assertThat(Expiry.isExpired(Map.of(a, AttributeValue.n(-5)), a, NOW_MILLIS))
                .isFalse();
    }

    @Tag("slow")
    @Test
    void backgroundLooksReadABoundedStepAndResume() {
        AtomicLong now = new AtomicLong(NOW_MILLIS);
        Store store = new MemoryStore();
        try (Engine e = Engine.open(store, now::get, EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0))) {
            e.control()
                    .createTable(
                            new RequestContext("us-east-1"),
                            new CreateTableRequest(
                                    "big",
                                    List.of(new CreateTableRequest.AttributeDefinitionInput(
                                            "pk", ScalarAttributeType.S)),
                                    List.of(new CreateTableRequest.KeySchemaInput("pk", KeyType.HASH)),
                                    null,
                                    null,
                                    BillingMode.PAY_PER_REQUEST,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null));
            e.timeToLive()
                    .updateTimeToLive(new TimeToLiveRequests.UpdateTimeToLive(
                            "big", new TimeToLiveRequests.Specification("ttl", true)));
            int items = TimeToLiveSweeper.ITEMS_PER_TICK_MAX * 2 + 500;
            for (int i = 0; i < items; i++) {
                long ttl = i % 2 == 0 ? NOW_MILLIS / 1000 - 1 : NOW_MILLIS / 1000 + 1;
                e.items()
                        .putItem(new ItemRequests.PutItem(
                                "big",
                                Map.of("pk", AttributeValue.s("k" + i), "ttl", AttributeValue.n(ttl)),
                                null,
                                null,
                                null,
                                null,
                                ItemRequests.Conditions.NONE));
            }
            TimeToLiveSweeper sweeper = new TimeToLiveSweeper(
                    EngineInternals.catalog(e),
                    store,
                    new ItemWriter(EngineSettings.DEFAULTS, EngineInternals.changeLog(e)),
                    new TimeToLiveClock(now::get),
                    0,
                    new Lease(store, "ttl-test", "me", now::get));
            long first = sweeper.tick();
            assertThat(first).isBetween(1L, (long) TimeToLiveSweeper.ITEMS_PER_TICK_MAX);
            long total = first + sweeper.tick() + sweeper.tick();
            assertThat(total).isEqualTo((items + 1) / 2);
            assertThat(EngineInternals.catalog(e).get("big").stats().itemCount())
                    .isEqualTo(items / 2);
            assertThat(sweeper.tick()).as("a new pass finds nothing more").isZero();
        }
    }
}
