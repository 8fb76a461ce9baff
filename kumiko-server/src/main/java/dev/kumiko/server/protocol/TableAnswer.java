package dev.kumiko.server.protocol;

import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.replication.ReplicaSet;
import org.jspecify.annotations.Nullable;

/**
 * What DescribeTable and UpdateTable answer: the table's description and, for a global table, its
 * replica set (the description's Replicas and GlobalTableVersion) and the region answering.
 */
record TableAnswer(TableDescription description, @Nullable ReplicaSet replicas, String localRegion) {}
