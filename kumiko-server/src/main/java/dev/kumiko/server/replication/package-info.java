/**
 * Global tables between Kumiko servers: the {@code --peer} option and the HTTP link to a peer
 * region's internal replication calls (docs/global-tables.md). Nullness is checked here: a type is
 * non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kumiko.server.replication;

import org.jspecify.annotations.NullMarked;
