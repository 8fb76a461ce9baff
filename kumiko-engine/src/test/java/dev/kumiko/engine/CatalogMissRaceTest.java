package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.storage.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads of one engine look up, at the same moment, a table another engine has just created:
 * every one of them finds it. (A thread that missed while another was reloading the catalog's
 * mirror once refreshed to "nothing changed" and reported the table missing.)
 */
class CatalogMissRaceTest {
    private static final int TABLES = 200;
    private static final int THREADS = 8;

    @Test
    @Timeout(120)
    void everyThreadFindsATableJustCreatedOnTheOtherEngine() throws Exception {
        MemoryStore store = new MemoryStore();
        EngineSettings settings = EngineSettings.DEFAULTS.withTtlSweepIntervalMillis(0);
        Clock clock = () -> TwoEnginesContract.NOW_MILLIS;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (Engine one = Engine.open(new SharedStore(store, false), clock, settings);
                Engine two = Engine.open(new SharedStore(store, false), clock, settings)) {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            int missed = 0;
            for (int i = 0; i < TABLES; i++) {
                String name = "table-" + i;
                TwoEnginesContract.createTable(one, name);
                List<Future<Boolean>> found = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    found.add(pool.submit(() -> {
                        start.await();
                        return two.catalog().get(name) != null;
                    }));
                }
                for (Future<Boolean> f : found) {
                    missed += f.get(30, TimeUnit.SECONDS) ? 0 : 1;
                }
            }
            assertThat(missed).as("lookups that missed a created table").isZero();
        } finally {
            pool.shutdownNow();
            store.close();
        }
    }
}
