/**
 * Kumiko's side of Kinesis streaming destinations that needs a network: the HTTP client of a
 * Kinesis-compatible service (the server's {@code --kinesis-endpoint}) and DynamoDB's Kinesis record
 * format (docs/kinesis.md). Nullness is checked here: a type is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kumiko.server.kinesis;

import org.jspecify.annotations.NullMarked;
