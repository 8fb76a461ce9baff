package dev.kumiko.engine.replication;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How this region reaches one peer region. The server implements it over HTTP to the peer's
 * internal replication endpoint (signed with SigV4 when the peer verifies signatures); a failed
 * call throws {@link Unreachable}, and the caller tries again later.
 */
public interface PeerLink {
    /** The peer creates its replica of tableName, shaped as this region's table, and keeps set. */
    void createReplica(String tableName, ReplicaSet set);

    /** The peer drops its replica of tableName (its table and its replica set). */
    void deleteReplica(String tableName);

    /**
     * The peer links its table of set's name into the legacy global table set, after checking that
     * it is empty, streams both images, and has this region's keys and indexes.
     */
    void joinGlobalTable(ReplicaSet set);

    /** The peer keeps set as tableName's replica set (a status changed, a replica came or went). */
    void publish(ReplicaSet set);

    /**
     * The peer applies change to its table of a legacy global table (when change is not null) and
     * answers the table's settings (UpdateGlobalTableSettings, DescribeGlobalTableSettings).
     */
    ReplicaSettings settings(String tableName, @Nullable SettingsChange change);

    /** The peer applies changes of tableName, in order, each with last writer wins. */
    void apply(String tableName, List<ReplicatedChange> changes);

    /** The peer did not answer, or answered with an error. */
    final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unreachable(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }
}
