package dev.kumiko.ignite;

import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreContract;
import java.util.List;
import org.junit.jupiter.api.Tag;

/** The store contract against a real one-node Ignite cluster. */
@Tag("slow")
class IgniteStoreTest extends StoreContract {
    @Override
    protected Store newStore() {
        return TestCluster.emptyStore();
    }

    /** Each commit waits for Raft's fsync: the races run a tenth of the rounds, same assertions. */
    @Override
    protected int roundsDivisor() {
        return 10;
    }

    /** Another client over the same cluster: what a server restart sees. */
    @Override
    protected Store reopen(Store closing) {
        closing.close();
        return IgniteStore.connect(List.of(TestCluster.endpoints().split(",")));
    }
}
