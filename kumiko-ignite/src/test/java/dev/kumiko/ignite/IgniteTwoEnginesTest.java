package dev.kumiko.ignite;

import dev.kumiko.engine.TwoEnginesContract;
import dev.kumiko.storage.Store;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * Two engines over one Ignite cluster, each through its own client connection (its own
 * IgniteStore), as two Kumiko servers would be: they share nothing but the cluster.
 */
@Tag("slow")
class IgniteTwoEnginesTest extends TwoEnginesContract {
    @Override
    protected Store newStore() {
        return TestCluster.emptyStore();
    }

    @Override
    protected Store handle(Store shared) {
        return IgniteStore.connect(List.of(TestCluster.endpoints().split(",")));
    }
}
