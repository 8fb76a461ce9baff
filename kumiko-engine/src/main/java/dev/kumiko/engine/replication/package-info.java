/**
 * Global tables: a table's replicas in other regions (other Kumiko deployments), kept in sync by
 * shipping each region's own changes from its change log to its peers, which apply them with last
 * writer wins (docs/global-tables.md). Nullness is checked here: a type is non-null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package dev.kumiko.engine.replication;

import org.jspecify.annotations.NullMarked;
