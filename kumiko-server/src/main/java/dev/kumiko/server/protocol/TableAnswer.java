package dev.kumiko.server.protocol;

import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.engine.vector.VectorIndexes;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What DescribeTable and UpdateTable answer: the table's description; for a global table, its
 * replica set (the description's Replicas and GlobalTableVersion) and the region answering; and the
 * table's vector indexes (VectorIndexes, none for most tables).
 */
record TableAnswer(
        TableDescription description,
        @Nullable ReplicaSet replicas,
        String localRegion,
        List<VectorIndexes.Described> vectorIndexes) {}
