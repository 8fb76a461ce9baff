/**
 * Vector indexes and SearchVectors: index definitions (persisted per table), the live indexes kept
 * up to date from the one write path ({@link dev.kumiko.engine.item.ItemWriter}), the search seam
 * ({@link dev.kumiko.engine.vector.VectorSearcher}) and the operation itself.
 */
@NullMarked
package dev.kumiko.engine.vector;

import org.jspecify.annotations.NullMarked;
