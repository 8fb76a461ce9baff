package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.item.ItemResult;
import dev.kumiko.server.policy.AuthRule;
import dev.kumiko.server.policy.ItemChecks;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Registrations of the item operations, Query and Scan, the batches and the transactions. */
final class DataPlaneOperations {
    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of(
            "PutItem",
            "GetItem",
            "UpdateItem",
            "DeleteItem",
            "Query",
            "Scan",
            "BatchWriteItem",
            "BatchGetItem",
            "TransactWriteItems",
            "TransactGetItems");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "PutItem" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ItemRequestReader::putItem),
                        (e, r, c) -> e.items().putItem(r),
                        (g, t, c) -> itemResult(g, "Attributes", t),
                        ItemChecks::putItem);
            case "GetItem" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ItemRequestReader::getItem),
                        (e, r, c) -> e.items().getItem(r),
                        (g, t, c) -> itemResult(g, "Item", t),
                        ItemChecks::getItem);
            case "UpdateItem" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ItemRequestReader::updateItem),
                        (e, r, c) -> e.items().updateItem(r),
                        (g, t, c) -> itemResult(g, "Attributes", t),
                        ItemChecks::updateItem);
            case "DeleteItem" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ItemRequestReader::deleteItem),
                        (e, r, c) -> e.items().deleteItem(r),
                        (g, t, c) -> itemResult(g, "Attributes", t),
                        ItemChecks::deleteItem);
            case "Query" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ReadRequestReader::query),
                        (e, r, c) -> e.reads().query(r),
                        (g, t, c) -> ReadResultWriter.write(g, t),
                        ItemChecks::query);
            case "Scan" ->
                dynamodb(
                        name,
                        ParameterCombinations.first(ReadRequestReader::scan),
                        (e, r, c) -> e.reads().scan(r),
                        (g, t, c) -> ReadResultWriter.write(g, t),
                        ItemChecks::scan);
            case "BatchWriteItem" ->
                dynamodb(
                        name,
                        BatchRequestReader::batchWrite,
                        (e, r, c) -> e.items().batchWriteItem(r),
                        (g, t, c) -> BatchResultWriter.batchWrite(g, t),
                        ItemChecks::batchWrite);
            case "BatchGetItem" ->
                dynamodb(
                        name,
                        BatchRequestReader::batchGet,
                        (e, r, c) -> e.items().batchGetItem(r),
                        (g, t, c) -> BatchResultWriter.batchGet(g, t),
                        ItemChecks::batchGet);
            case "TransactWriteItems" ->
                dynamodb(
                        name,
                        TransactRequestReader::transactWrite,
                        (e, r, c) -> e.transactions().transactWriteItems(r),
                        (g, t, c) -> TransactResultWriter.transactWrite(g, t),
                        ItemChecks::transactWrite);
            case "TransactGetItems" ->
                dynamodb(
                        name,
                        TransactRequestReader::transactGet,
                        (e, r, c) -> e.transactions().transactGetItems(r),
                        (g, t, c) -> TransactResultWriter.transactGet(g, t),
                        ItemChecks::transactGet);
            default -> throw new IllegalArgumentException("not an item, read, batch or transaction operation: " + name);
        };
    }

    private DataPlaneOperations() {}

    static <R, T> Operation<R, T> dynamodb(
            String name,
            Operation.Decoder<R> decoder,
            Operation.Call<R, T> call,
            Operation.Encoder<T> encoder,
            AuthRule<R> authorization) {
        return new Operation<>(Operation.Api.DYNAMODB, name, decoder, call, encoder, authorization);
    }

    /**
     * The decoder of an operation whose request is one string member (a table name or an ARN),
     * null when absent: the authorization rules ({@link dev.kumiko.server.policy.ResourceChecks})
     * ask for "*" then, and the engine answers DynamoDB's validation error.
     */
    // NullAway reads the nullness of type arguments (Decoder<@Nullable String>) only in its JSpecify
    // mode, which this build does not run; without it the lambda's null answer is reported.
    @SuppressWarnings("NullAway")
    static Operation.Decoder<@Nullable String> member(String name) {
        return body -> Fields.string(body, name);
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
