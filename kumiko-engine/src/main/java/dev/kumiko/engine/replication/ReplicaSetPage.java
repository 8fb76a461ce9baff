package dev.kumiko.engine.replication;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One page of ListGlobalTables: the legacy sets, and the last one's name when more may follow. */
public record ReplicaSetPage(
        List<ReplicaSet> sets, @Nullable String lastName) {
    public ReplicaSetPage {
        sets = List.copyOf(sets);
    }
}
