package dev.kumiko.engine.txn;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.engine.throughput.ThroughputLimiter;
import dev.kumiko.storage.Store;

/** TransactWriteItems and TransactGetItems. */
public final class TransactionOperations {
    private final TransactWriteOperation write;
    private final TransactGetOperation get;

    public TransactionOperations(
            Catalog catalog, Store store, ItemWriter writer, Clock clock, ThroughputLimiter limiter) {
        this.write = new TransactWriteOperation(catalog, store, writer, clock, limiter);
        this.get = new TransactGetOperation(catalog, store);
    }

    public TransactResults.TransactWrite transactWriteItems(TransactRequests.TransactWrite r) {
        return write.apply(r);
    }

    public TransactResults.TransactGet transactGetItems(TransactRequests.TransactGet r) {
        return get.apply(r);
    }
}
