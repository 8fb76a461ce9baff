package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.item.ItemResult;
import dev.kumiko.server.policy.AuthRule;
import dev.kumiko.server.policy.ItemChecks;
import java.io.IOException;

/** Registrations of the item operations, Query and Scan, the batches and the transactions. */
final class DataPlaneOperations {
    private DataPlaneOperations() {}

    static void register(OperationTable.Builder b) {
        b.add(dynamodb("PutItem", ParameterCombinations.first(ItemRequestReader::putItem),
                (e, r, c) -> e.items().putItem(r),
                (g, t, c) -> itemResult(g, "Attributes", t), ItemChecks::putItem));
        b.add(dynamodb("GetItem", ParameterCombinations.first(ItemRequestReader::getItem),
                (e, r, c) -> e.items().getItem(r),
                (g, t, c) -> itemResult(g, "Item", t), ItemChecks::getItem));
        b.add(dynamodb("UpdateItem", ParameterCombinations.first(ItemRequestReader::updateItem),
                (e, r, c) -> e.items().updateItem(r),
                (g, t, c) -> itemResult(g, "Attributes", t), ItemChecks::updateItem));
        b.add(dynamodb("DeleteItem", ParameterCombinations.first(ItemRequestReader::deleteItem),
                (e, r, c) -> e.items().deleteItem(r),
                (g, t, c) -> itemResult(g, "Attributes", t), ItemChecks::deleteItem));
        b.add(dynamodb("Query", ParameterCombinations.first(ReadRequestReader::query),
                (e, r, c) -> e.reads().query(r),
                (g, t, c) -> ReadResultWriter.write(g, t), ItemChecks::query));
        b.add(dynamodb("Scan", ParameterCombinations.first(ReadRequestReader::scan),
                (e, r, c) -> e.reads().scan(r),
                (g, t, c) -> ReadResultWriter.write(g, t), ItemChecks::scan));
        b.add(dynamodb("BatchWriteItem", BatchRequestReader::batchWrite, (e, r, c) -> e.items().batchWriteItem(r),
                (g, t, c) -> BatchResultWriter.batchWrite(g, t), ItemChecks::batchWrite));
        b.add(dynamodb("BatchGetItem", BatchRequestReader::batchGet, (e, r, c) -> e.items().batchGetItem(r),
                (g, t, c) -> BatchResultWriter.batchGet(g, t), ItemChecks::batchGet));
        b.add(dynamodb("TransactWriteItems", TransactRequestReader::transactWrite,
                (e, r, c) -> e.transactions().transactWriteItems(r),
                (g, t, c) -> TransactResultWriter.transactWrite(g, t), ItemChecks::transactWrite));
        b.add(dynamodb("TransactGetItems", TransactRequestReader::transactGet,
                (e, r, c) -> e.transactions().transactGetItems(r),
                (g, t, c) -> TransactResultWriter.transactGet(g, t), ItemChecks::transactGet));
    }

    static <R, T> Operation<R, T> dynamodb(String name, Operation.Decoder<R> decoder, Operation.Call<R, T> call,
            Operation.Encoder<T> encoder, AuthRule<R> authorization) {
        return new Operation<>(Operation.Api.DYNAMODB, name, decoder, call, encoder, authorization);
    }

    private static void itemResult(JsonGenerator g, String field, ItemResult r) throws IOException {
        if (r.attributes() != null) {
            g.writeFieldName(field);
            JsonOut.item(g, r.attributes());
        }
        if (r.consumedCapacity() != null) {
            Operations.consumedCapacity(g, r.consumedCapacity());
        }
        if (r.itemCollectionMetrics() != null) {
            g.writeFieldName("ItemCollectionMetrics");
            Operations.itemCollectionMetricsObject(g, r.itemCollectionMetrics());
        }
    }
}
