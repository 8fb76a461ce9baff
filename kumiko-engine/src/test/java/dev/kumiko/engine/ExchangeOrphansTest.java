package dev.kumiko.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.memory.MemoryStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which export and import jobs count as orphaned, so that recovery marks them FAILED: those that no
 * engine runs any more, never one that runs, whichever engine over the store asks. Over a local
 * store and over one shared by processes (where a job's lease says who runs it).
 */
class ExchangeOrphansTest {
    @ParameterizedTest(name = "local store: {0}")
    @ValueSource(booleans = {true, false})
    void aRunningJobIsNoOrphanForItsOwnEngineOrAnother(boolean local) {
        try (MemoryStore store = new MemoryStore();
                Engine runner = Engine.open(new SharedStore(store, local));
                Engine other = Engine.open(new SharedStore(store, local))) {
            runner.exchange().started("job-1");
            assertThat(runner.exchange().orphaned("job-1"))
                    .as("asked by the engine that runs it")
                    .isFalse();
            assertThat(other.exchange().orphaned("job-1"))
                    .as("asked by another engine")
                    .isFalse();
            assertThat(runner.exchange().orphaned("job-1"))
                    .as("asked again by its engine")
                    .isFalse();
            runner.exchange().finished("job-1");
            assertThat(other.exchange().orphaned("job-1"))
                    .as("after its runner let go")
                    .isTrue();
        }
    }
}
