package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.CapacityUnits;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.engine.failure.TransactionCanceled;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.engine.item.WriteOutcome;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.error.ItemCollectionSizeLimitExceeded;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * TransactWriteItems: all actions commit in one storage batch, with their index entries, or none
 * does.
 *
 * <p>Running a transaction: begin a claiming store transaction over its items
 * ({@link TransactionMode#CLAIM}: another transaction holding one cancels this one with
 * TransactionConflict, and plain writers of these items now fail fast), read every item in one
 * call, evaluate every action, and if all pass hand the changes to {@link ItemWriter#commitAll} in
 * that store transaction. The store keeps the items from changing between read and commit (or
 * refuses the commit: a conflict, answered as TransactionConflict too), which makes the
 * transaction serializable with every other writer; the single batch makes it atomic for every
 * reader.
 */
public final class TransactWriteOperation {
    private final TransactWriteValidator validator;
    private final Store store;
    private final ItemWriter writer;
    private final ClientTokens tokens;
    private final ThroughputLimiter limiter;

    public TransactWriteOperation(
            Catalog catalog, Store store, ItemWriter writer, Clock clock, ThroughputLimiter limiter) {
        this.limiter = limiter;
        this.validator = new TransactWriteValidator(catalog);
        this.store = store;
        this.writer = writer;
        this.tokens = new ClientTokens(store, clock);
    }

    public TransactResults.TransactWrite apply(TransactRequests.TransactWrite r) {
        List<TransactAction> actions = validator.validate(r);
        ClientTokens.Token token = r.clientRequestToken() == null
                ? null
                : new ClientTokens.Token(r.clientRequestToken(), RequestFingerprint.of(r));
        Committed committed = run(actions, r.returnItemCollectionMetrics(), token);
        if (token != null) {
            tokens.cleanUpIfDue();
        }
        return result(r, committed);
    }

    /** What a run reported; replayed: a retry answered from its token, nothing ran. */
    private record Ran(Committed committed, boolean replayed) {}

    /**
     * With throughput enforcement on, every item's table and partition key must admit the write
     * first (a throttled transaction changes nothing), and each table pays what the transaction
     * consumed; transactional units are already doubled. A replay pays nothing.
     */
    private Committed run(
            List<TransactAction> actions,
            @Nullable ReturnItemCollectionMetrics metricsMode,
            ClientTokens.@Nullable Token token) {
        for (TransactAction a : actions) {
            if (a.key() != null) {
                limiter.admitWrite(a.table(), a.key().get(a.table().descriptor().hashKeyName()), a.key());
            }
        }
        Ran ran = runAdmitted(actions, metricsMode, token);
        if (!ran.replayed()) {
            Map<String, Table> tables = new LinkedHashMap<>();
            actions.forEach(a -> tables.putIfAbsent(a.table().descriptor().tableName(), a.table()));
            ran.committed()
                    .writeUnits()
                    .forEach((name, units) -> limiter.chargeWrite(
                            Objects.requireNonNull(tables.get(name), "units are counted by these tables"),
                            null,
                            units));
        }
        return ran.committed();
    }

    /**
     * One claiming store transaction over the items and the token's key (last). A conflict on the
     * token's key is a retry racing its first call; on items, a transaction conflict. A single
     * attempt, not run through ReadModifyWrite: DynamoDB cancels a transaction that meets another
     * on its items instead of queueing it, and the client decides whether to run it again.
     */
    private Ran runAdmitted(
            List<TransactAction> actions,
            @Nullable ReturnItemCollectionMetrics metricsMode,
            ClientTokens.@Nullable Token token) {
        List<TransactAction> keyed =
                actions.stream().filter(a -> a.storageKey() != null).toList();
        byte[][] keys = new byte[keyed.size() + (token == null ? 0 : 1)][];
        for (int i = 0; i < keyed.size(); i++) {
            keys[i] = keyed.get(i).storageKey();
        }
        if (token != null) {
            keys[keyed.size()] = token.key();
        }
        boolean started = token != null && tokens.started(token);
        try (Transaction txn = store.begin(keys, TransactionMode.CLAIM)) {
            return evaluateAndCommit(txn, keys, actions, metricsMode, token);
        } catch (StoreConflictException e) {
            int[] contested = e.keyIndexes();
            List<Integer> conflicting = new ArrayList<>(contested.length);
            for (int i : contested) {
                if (i == keyed.size()) {
                    throw tokens.racing(Objects.requireNonNull(token, "the key past the items is the token's"));
                }
                conflicting.add(keyed.get(i).index());
            }
            // A store that cannot tell which keys conflicted: every item may have.
            throw conflicted(
                    actions,
                    contested.length > 0
                            ? conflicting
                            : keyed.stream().map(TransactAction::index).toList());
        } finally {
            if (started && token != null) { // started only with a token
                tokens.stopped(token);
            }
        }
    }

    /** TransactionConflict for the actions on held items; the static problems of the others still show. */
    private static TransactionCanceled conflicted(List<TransactAction> actions, List<Integer> conflicting) {
        List<CancellationReason> reasons = new ArrayList<>(actions.size());
        for (TransactAction a : actions) {
            reasons.add(
                    conflicting.contains(a.index())
                            ? CancellationReason.transactionConflict()
                            : a.problem() != null
                                    ? CancellationReason.validationError(a.problem())
                                    : CancellationReason.OK);
        }
        return new TransactionCanceled(reasons);
    }

    private Ran evaluateAndCommit(
            Transaction txn,
            byte[][] keys,
            List<TransactAction> actions,
            @Nullable ReturnItemCollectionMetrics metricsMode,
            ClientTokens.@Nullable Token token) {
        byte[][] values = txn.getAll(keys);
        byte[] tokenRecord = token == null ? null : values[keys.length - 1];
        if (token != null) {
            Committed earlier = tokens.earlier(token, tokenRecord);
            if (earlier != null) {
                return new Ran(earlier, true);
            }
        }
        List<ActionOutcome> outcomes = new ArrayList<>(actions.size());
        long[] existingBytes = new long[actions.size()];
        int k = 0;
        for (int i = 0; i < actions.size(); i++) {
            TransactAction a = actions.get(i);
            byte[] bytes = a.storageKey() == null ? null : values[k++];
            // Left in its bytes: conditions and updates read a few attributes, and the writer and the
            // change log work from the stored form (as a single-item write's do).
            Map<String, AttributeValue> current = bytes == null ? null : EncodedItem.of(bytes);
            existingBytes[i] = current == null ? 0 : ItemSize.of(current);
            outcomes.add(ActionEvaluator.evaluate(a, current));
        }
        if (outcomes.stream().anyMatch(ActionOutcome::isCancelled)) {
            chargeCancelled(actions, outcomes, existingBytes);
            throw new TransactionCanceled(
                    outcomes.stream().map(ActionOutcome::reason).toList());
        }
        List<ItemWriter.Change> changes = new ArrayList<>(actions.size());
        List<Integer> actionOfChange = new ArrayList<>(actions.size());
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).change() != null) {
                changes.add(outcomes.get(i).change());
                actionOfChange.add(i);
            }
        }
        Committed[] committed = new Committed[1];
        try {
            writer.commitAll(txn, changes, ChangeOrigin.CLIENT, (written, batch) -> {
                committed[0] = committed(actions, outcomes, written, actionOfChange, metricsMode);
                if (token != null) {
                    tokens.recordIn(batch, token, committed[0], tokenRecord);
                }
            });
        } catch (ItemCollectionSizeLimitExceeded e) {
            throw collectionTooLarge(actions.size(), actionOfChange.get(e.changeIndex()));
        }
        return new Ran(committed[0], false);
    }

    /**
     * A transaction cancelled while its items were evaluated has run its prepare phase, which
     * consumes write capacity as a failed conditional write does: one standard write per action, by
     * the larger of the existing item and the item a Put or Update would have stored (at least one
     * unit), not doubled, since the commit phase never ran. UNVERIFIED: the documentation says only
     * that a transaction is two underlying writes per item; the error reports no ConsumedCapacity.
     * An action whose key is malformed reached no item and costs nothing.
     */
    private void chargeCancelled(List<TransactAction> actions, List<ActionOutcome> outcomes, long[] existingBytes) {
        for (int i = 0; i < actions.size(); i++) {
            TransactAction a = actions.get(i);
            if (a.storageKey() == null) {
                continue;
            }
            ActionOutcome o = outcomes.get(i);
            long wouldStore = o.change() != null ? o.change().newItemBytes() : o.billedBytes();
            CapacityTally units = CapacityUnits.write(tableName(a), Math.max(existingBytes[i], wouldStore), List.of());
            limiter.chargeWrite(a.table(), a.key().get(a.table().descriptor().hashKeyName()), units);
        }
    }

    private static TransactionCanceled collectionTooLarge(int actionCount, int offending) {
        List<CancellationReason> reasons = new ArrayList<>(Collections.nCopies(actionCount, CancellationReason.OK));
        reasons.set(offending, CancellationReason.collectionSizeExceeded());
        return new TransactionCanceled(reasons);
    }

    /**
     * Write units per table (twice a standard write's, index writes included) and item collection
     * metrics. An action that changed nothing is billed on the size it was evaluated against.
     */
    private static Committed committed(
            List<TransactAction> actions,
            List<ActionOutcome> outcomes,
            List<WriteOutcome> written,
            List<Integer> actionOfChange,
            @Nullable ReturnItemCollectionMetrics metricsMode) {
        CapacityTally[] tallies = new CapacityTally[actions.size()];
        for (int i = 0; i < outcomes.size(); i++) {
            tallies[i] = CapacityUnits.write(
                    tableName(actions.get(i)), outcomes.get(i).billedBytes(), List.of());
        }
        Map<String, List<ItemCollectionMetrics>> metrics = new LinkedHashMap<>();
        for (int c = 0; c < written.size(); c++) {
            int i = actionOfChange.get(c);
            WriteOutcome w = written.get(c);
            ItemWriter.Change change = Objects.requireNonNull(outcomes.get(i).change(), "a written action's change");
            long billed = Math.max(change.newItemBytes(), w.oldItemBytes());
            tallies[i] = CapacityUnits.write(tableName(actions.get(i)), billed, w.indexChanges());
            TableDescriptor d = actions.get(i).table().descriptor();
            ItemCollectionMetrics m = ItemCollectionMetrics.of(
                    metricsMode, d, d.hashKeyOf(actions.get(i).key()), w.collectionBytes());
            if (m != null) {
                metrics.computeIfAbsent(d.tableName(), t -> new ArrayList<>()).add(m);
            }
        }
        Map<String, CapacityTally> units = new LinkedHashMap<>();
        for (CapacityTally t : tallies) {
            units.merge(t.tableName(), t.doubled(), CapacityTally::addAll);
        }
        return new Committed(units, metrics);
    }

    private static String tableName(TransactAction a) {
        return a.table().descriptor().tableName();
    }

    private static TransactResults.TransactWrite result(TransactRequests.TransactWrite r, Committed c) {
        return new TransactResults.TransactWrite(
                TransactChecks.capacity(r.returnConsumedCapacity(), c.writeUnits()),
                c.itemCollectionMetrics().isEmpty() ? null : c.itemCollectionMetrics());
    }
}
