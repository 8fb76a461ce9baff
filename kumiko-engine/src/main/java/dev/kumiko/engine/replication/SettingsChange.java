package dev.kumiko.engine.replication;

import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What UpdateGlobalTableSettings changes in one region's table: the billing mode, write units and
 * each index's write units (the same in every region), and that region's read units, each index's
 * read units and table class. Null (or absent from a map): unchanged.
 */
public record SettingsChange(
        @Nullable BillingMode billingMode,
        @Nullable Long writeCapacityUnits,
        @Nullable Long readCapacityUnits,
        Map<String, Long> indexWriteCapacityUnits,
        Map<String, Long> indexReadCapacityUnits,
        @Nullable TableClass tableClass) {

    public SettingsChange {
        indexWriteCapacityUnits = Map.copyOf(indexWriteCapacityUnits);
        indexReadCapacityUnits = Map.copyOf(indexReadCapacityUnits);
    }

    public boolean empty() {
        return billingMode == null
                && writeCapacityUnits == null
                && readCapacityUnits == null
                && indexWriteCapacityUnits.isEmpty()
                && indexReadCapacityUnits.isEmpty()
                && tableClass == null;
    }
}
