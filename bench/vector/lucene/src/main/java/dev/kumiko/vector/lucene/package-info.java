/** Apache Lucene's HNSW graph behind Kumiko's VectorSearcher seam, for measuring it against Kumiko's own. */
@NullMarked
package dev.kumiko.vector.lucene;

import org.jspecify.annotations.NullMarked;
