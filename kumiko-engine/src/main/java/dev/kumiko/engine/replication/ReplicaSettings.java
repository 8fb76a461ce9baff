package dev.kumiko.engine.replication;

import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.util.List;

/**
 * One region's replica of a legacy global table as DescribeGlobalTableSettings reports it: its
 * status, its table's billing mode (with the time of the last switch to on-demand, 0 when never),
 * provisioned units (0 on demand), table class, and each global secondary index's status and units.
 */
public record ReplicaSettings(
        String region,
        ReplicaStatus status,
        BillingMode billingMode,
        long lastUpdateToPayPerRequestMillis,
        long readCapacityUnits,
        long writeCapacityUnits,
        List<IndexSettings> indexes,
        TableClass tableClass) {

    /** A global secondary index of the replica's table. */
    public record IndexSettings(String indexName, String indexStatus, long readCapacityUnits, long writeCapacityUnits) {
        public IndexSettings {
            assert !indexName.isEmpty();
            assert readCapacityUnits >= 0 && writeCapacityUnits >= 0;
        }
    }

    public ReplicaSettings {
        indexes = List.copyOf(indexes);
        assert !region.isEmpty() && region.length() <= Stamp.REGION_BYTES_MAX : region;
        assert readCapacityUnits >= 0 && writeCapacityUnits >= 0;
        assert lastUpdateToPayPerRequestMillis >= 0;
    }

    /** The same replica with the status its global table's set gives it (a peer knows only its table). */
    public ReplicaSettings withStatus(ReplicaStatus s) {
        return new ReplicaSettings(
                region,
                s,
                billingMode,
                lastUpdateToPayPerRequestMillis,
                readCapacityUnits,
                writeCapacityUnits,
                indexes,
                tableClass);
    }
}
