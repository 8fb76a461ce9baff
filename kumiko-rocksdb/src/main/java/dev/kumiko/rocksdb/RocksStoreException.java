package dev.kumiko.rocksdb;

import org.rocksdb.RocksDBException;

/** A RocksDB failure (I/O error, corruption), unchecked so it crosses the Store interface. */
public final class RocksStoreException extends RuntimeException {
    RocksStoreException(String operation, RocksDBException cause) {
        super("RocksDB " + operation + " failed: " + cause.getMessage(), cause);
    }
}
