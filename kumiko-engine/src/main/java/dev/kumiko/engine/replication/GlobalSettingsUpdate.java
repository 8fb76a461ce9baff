package dev.kumiko.engine.replication;

import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * UpdateGlobalTableSettings, typed and checked against the API Reference's constraints by the
 * server's decoder: what applies to every region (billing mode, write units, each index's write
 * units) and what applies to one region each (its read units, its indexes' read units, its table class).
 */
public record GlobalSettingsUpdate(
        @Nullable BillingMode billingMode,
        @Nullable Long writeCapacityUnits,
        Map<String, Long> indexWriteCapacityUnits,
        List<Replica> replicas) {

    /** One ReplicaSettingsUpdate element. */
    public record Replica(
            String region,
            @Nullable Long readCapacityUnits,
            Map<String, Long> indexReadCapacityUnits,
            @Nullable TableClass tableClass) {
        public Replica {
            indexReadCapacityUnits = Map.copyOf(indexReadCapacityUnits);
        }
    }

    public GlobalSettingsUpdate {
        indexWriteCapacityUnits = Map.copyOf(indexWriteCapacityUnits);
        replicas = List.copyOf(replicas);
    }

    /** What region's table is to change: the global members, and its own ReplicaSettingsUpdate's. */
    public SettingsChange changeFor(String region) {
        Replica mine = null;
        for (Replica r : replicas) {
            if (r.region().equals(region)) {
                mine = r;
            }
        }
        return new SettingsChange(
                billingMode,
                writeCapacityUnits,
                mine == null ? null : mine.readCapacityUnits(),
                indexWriteCapacityUnits,
                mine == null ? Map.of() : mine.indexReadCapacityUnits(),
                mine == null ? null : mine.tableClass());
    }
}
