package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.check.DuplicateKeys;
import dev.kumiko.engine.check.KeyPathCheck;
import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * TransactGetItems: up to 100 items over several tables, read from one store snapshot in
 * one call (Snapshot#getAll).
 *
 * <p>Why a snapshot and not the items' locks: every TransactWriteItems commits as one storage
 * batch, and a snapshot sees a batch entirely or not at all, so the view can never hold part of a
 * transaction — nor part of any other write. The reads take no item locks, so they never wait for
 * a writer and never make one wait or fail (DynamoDB may instead cancel a TransactGetItems that
 * meets a write in flight; Kumiko never needs to). On the memory store the snapshot holds the
 * batch lock for the few reads; on RocksDB it is a true point-in-time view.
 */
public final class TransactGetOperation {
    private final Catalog catalog;
    private final Store store;

    public TransactGetOperation(Catalog catalog, Store store) {
        this.catalog = catalog;
        this.store = store;
    }

    /** One validated Get; storageKey is null when its key does not match the schema. */
    private record Target(
            TableDescriptor table,
            byte @Nullable [] storageKey,
            RequestExpressions projection,
            @Nullable String problem) {}

    public TransactResults.TransactGet apply(TransactRequests.TransactGet r) {
        List<RequestExpressions> projections = new ArrayList<>(r.transactItems().size());
        for (TransactRequests.GetAction g : r.transactItems()) {
            projections.add(RequestExpressions.builder()
                    .projectionExpression(g.projectionExpression())
                    .expressionAttributeNames(g.expressionAttributeNames())
                    .build());
        }
        List<Target> targets = new ArrayList<>(projections.size());
        for (int i = 0; i < projections.size(); i++) {
            targets.add(resolve(i, r.transactItems().get(i), projections.get(i)));
        }
        DuplicateKeys.refuse(
                targets.stream().map(Target::storageKey).toList(), TransactChecks.MULTIPLE_OPERATIONS_ON_ONE_ITEM);
        cancelOnProblems(targets);
        return answer(targets, readAll(targets), r.returnConsumedCapacity());
    }

    private Target resolve(int index, TransactRequests.GetAction g, RequestExpressions projection) {
        TableDescriptor d = TransactChecks.table(
                        catalog, g.tableName(), "transactItems." + (index + 1) + ".member.get.tableName")
                .descriptor();
        KeyPathCheck.check(d, projection);
        // The server's TransactConstraints refused a Get without its Key.
        Map<String, AttributeValue> key = Objects.requireNonNull(g.key(), "Get.Key is required");
        String problem = TransactKeys.keyProblem(d, key);
        return new Target(d, problem == null ? TransactKeys.storageKey(d, key) : null, projection, problem);
    }

    /** A Key that does not match the schema cancels the read, as DynamoDB reports it. */
    private static void cancelOnProblems(List<Target> targets) {
        if (targets.stream().allMatch(t -> t.problem() == null)) {
            return;
        }
        throw new TransactionCanceled(targets.stream()
                .map(t -> t.problem() == null ? CancellationReason.OK : CancellationReason.validationError(t.problem()))
                .toList());
    }

    private List<Map<String, AttributeValue>> readAll(List<Target> targets) {
        List<Map<String, AttributeValue>> items = new ArrayList<>(targets.size());
        byte[][] keys = targets.stream().map(Target::storageKey).toArray(byte[][]::new);
        byte[][] values;
        try (Snapshot snapshot = store.snapshot()) {
            values = snapshot.getAll(keys);
        }
        for (byte[] bytes : values) {
            // Left in its bytes: sized from its header, and written as JSON from them unless projected.
            items.add(bytes == null ? null : EncodedItem.of(bytes));
        }
        return items;
    }

    private static TransactResults.TransactGet answer(
            List<Target> targets,
            List<Map<String, AttributeValue>> items,
            @Nullable ReturnConsumedCapacity capacityMode) {
        List<Map<String, AttributeValue>> responses = new ArrayList<>(items.size());
        Map<String, CapacityTally> units = new LinkedHashMap<>();
        long totalBytes = 0;
        for (int i = 0; i < items.size(); i++) {
            Map<String, AttributeValue> item = items.get(i);
            long bytes = item == null ? 0 : ItemSize.of(item);
            totalBytes += bytes;
            // A transactional read costs twice a strongly consistent one.
            String table = targets.get(i).table().tableName();
            units.merge(
                    table,
                    new CapacityTally(table, true)
                            .addTable(CapacityUnits.read(bytes, true))
                            .doubled(),
                    CapacityTally::addAll);
            responses.add(item == null ? null : targets.get(i).projection().project(item));
        }
        if (totalBytes > TransactChecks.TRANSACTION_BYTES_MAX) {
            throw DynamoException.validation(TransactChecks.AGGREGATE_SIZE_MESSAGE);
        }
        return new TransactResults.TransactGet(responses, TransactChecks.capacity(capacityMode, units));
    }
}
