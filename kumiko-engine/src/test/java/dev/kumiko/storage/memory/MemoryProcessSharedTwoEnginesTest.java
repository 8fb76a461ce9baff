package dev.kumiko.storage.memory;

import dev.kumiko.engine.SharedStore;
import dev.kumiko.engine.TwoEnginesContract;
import dev.kumiko.storage.Store;

/**
 * The two-engine suite over a store that acts as one shared by processes: the engines can share
 * no process memory, only store data (sequence numbers, tokens, catalog, counters).
 */
class MemoryProcessSharedTwoEnginesTest extends TwoEnginesContract {
    @Override
    protected Store newStore() {
        return new MemoryStore();
    }

    @Override
    protected Store handle(Store shared) {
        return new SharedStore(shared, false);
    }
}
