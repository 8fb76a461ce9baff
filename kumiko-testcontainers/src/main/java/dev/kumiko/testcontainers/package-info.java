/** Nullness is checked here: a type is non-null unless marked {@code @Nullable}. */
@NullMarked
package dev.kumiko.testcontainers;

import org.jspecify.annotations.NullMarked;
