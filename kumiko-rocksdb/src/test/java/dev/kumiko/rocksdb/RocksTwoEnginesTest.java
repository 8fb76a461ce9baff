package dev.kumiko.rocksdb;

import dev.kumiko.engine.TwoEnginesContract;
import dev.kumiko.storage.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

@Tag("slow")
class RocksTwoEnginesTest extends TwoEnginesContract {
    @TempDir
    Path dir;

    @Override
    protected Store newStore() {
        return RocksStore.open(dir.resolve("db"), RocksStoreTest.OPTIONS);
    }
}
