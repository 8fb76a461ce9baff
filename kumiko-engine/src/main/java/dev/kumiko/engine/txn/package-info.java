/** Nullness is checked here: a type is non-null unless marked {@code @Nullable}. */
@NullMarked
package dev.kumiko.engine.txn;

import org.jspecify.annotations.NullMarked;
