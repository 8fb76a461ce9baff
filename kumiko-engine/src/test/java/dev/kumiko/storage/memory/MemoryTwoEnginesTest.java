package dev.kumiko.storage.memory;

import dev.kumiko.engine.TwoEnginesContract;
import dev.kumiko.storage.Store;

class MemoryTwoEnginesTest extends TwoEnginesContract {
    @Override
    protected Store newStore() {
        return new MemoryStore();
    }
}
