package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.failure.ConditionalCheckFailed;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The single-item write operations' side of throughput enforcement: admit before the write,
 * check the GSIs once the new item is known, charge after. {@code keyed} is the item or its key;
 * only its partition key is used.
 */
final class WriteThroughput {
    private final ThroughputLimiter limiter;

    WriteThroughput(ThroughputLimiter limiter) {
        this.limiter = limiter;
    }

    void admit(Table t, Map<String, AttributeValue> keyed) {
        limiter.admitWrite(t, t.descriptor().hashKeyOf(keyed), keyed);
    }

    void admitIndexWrites(
            Table t, @Nullable Map<String, AttributeValue> oldItem, @Nullable Map<String, AttributeValue> newItem) {
        limiter.admitIndexWrites(t, oldItem, newItem);
    }

    void charge(Table t, Map<String, AttributeValue> keyed, CapacityTally units) {
        limiter.chargeWrite(t, t.descriptor().hashKeyOf(keyed), units);
    }

    /**
     * {@link ItemAccess#checkCondition}, charging a failed condition: DynamoDB still consumes write
     * units for it, by the larger of the existing item and the item the write would have stored,
     * with a minimum of one (Developer Guide, "DynamoDB read and write operations"). The charge is
     * seen by metrics always and by throughput enforcement when it is on; the error carries no
     * ConsumedCapacity, as DynamoDB's does not. newItemBytes is 0 where the new item is not known
     * before the condition (UpdateItem, DeleteItem).
     */
    void checkCondition(
            Table t,
            Map<String, AttributeValue> keyed,
            WritePlan plan,
            @Nullable Map<String, AttributeValue> current,
            @Nullable ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure,
            long newItemBytes) {
        try {
            ItemAccess.checkCondition(plan, current, returnValuesOnConditionCheckFailure);
        } catch (ConditionalCheckFailed e) {
            long bytes = Math.max(current == null ? 0 : ItemSize.of(current), newItemBytes);
            charge(t, keyed, CapacityUnits.write(t.descriptor().tableName(), bytes, List.of()));
            throw e;
        }
    }
}
