package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Request checks and reporting shared by TransactWriteItems and TransactGetItems. */
final class TransactChecks {
    /** DynamoDB's limit on the aggregate size of the items in one transaction. */
    static final long TRANSACTION_BYTES_MAX = 4L * 1024 * 1024;
    /** UNVERIFIED wording: the 4 MB limit is documented, the message for exceeding it is not. */
    static final String AGGREGATE_SIZE_MESSAGE =
            "Aggregate size of the items in the transaction has exceeded the maximum allowed size of 4 MB";

    static final String MULTIPLE_OPERATIONS_ON_ONE_ITEM =
            "Transaction request cannot include multiple operations on one item";

    private TransactChecks() {}

    /** The table an action names; DynamoDB's short not-found message as for the other item operations. */
    static Table table(Catalog catalog, @Nullable String nameOrArn, String path) {
        Table t = catalog.get(TableNames.resolve(nameOrArn, path));
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t;
    }

    /** Per-table capacity as ReturnConsumedCapacity asks for it; null for NONE or absent. */
    static @Nullable List<ConsumedCapacity> capacity(
            @Nullable ReturnConsumedCapacity mode, Map<String, CapacityTally> perTable) {
        if (!ReturnConsumedCapacity.reported(mode)) {
            return null;
        }
        List<ConsumedCapacity> out = new ArrayList<>(perTable.size());
        perTable.values().forEach(t -> out.add(t.report(mode)));
        return out;
    }
}
