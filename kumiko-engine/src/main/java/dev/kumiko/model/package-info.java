/** Nullness is checked here: a type is non-null unless marked {@code @Nullable}. */
@NullMarked
package dev.kumiko.model;

import org.jspecify.annotations.NullMarked;
