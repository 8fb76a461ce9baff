package dev.kumiko.engine.replication;

import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.StoreConflictException;

/**
 * The read-modify-write runner for replication's own small transactions (a stamp, a position, an
 * applied item): a conflict runs the cycle again; one that outlasts the runner's retries is thrown,
 * and the shipment that caused it is sent again later.
 */
final class Retried {
    private Retried() {}

    static <T> T run(ReadModifyWrite.Body<T> body) {
        return ReadModifyWrite.SYSTEM.run(
                ReadModifyWrite.Claimed.RETRY,
                (StoreConflictException last) -> {
                    throw last;
                },
                body);
    }
}
