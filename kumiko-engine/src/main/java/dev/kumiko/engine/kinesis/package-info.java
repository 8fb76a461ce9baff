/**
 * Kinesis streaming destinations: EnableKinesisStreamingDestination and the operations after it
 * ({@link KinesisDestinationOperations}), and the background task that ships each enabled table's
 * change-log records to its Kinesis data streams ({@link KinesisShipper}) over a {@link KinesisLink}
 * the server provides (docs/kinesis.md). Nullness is checked here: a type is non-null unless
 * marked {@code @Nullable}.
 */
@NullMarked
package dev.kumiko.engine.kinesis;

import org.jspecify.annotations.NullMarked;
