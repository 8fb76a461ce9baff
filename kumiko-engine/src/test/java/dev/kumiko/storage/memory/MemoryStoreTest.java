package dev.kumiko.storage.memory;

import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreContract;

class MemoryStoreTest extends StoreContract {
    @Override
    protected Store newStore() {
        return new MemoryStore();
    }

    @Override
    protected boolean snapshotsBlockWriters() {
        return true;
    }
}
