package dev.kumiko.catalog;

import dev.kumiko.model.StreamViewType;
import java.util.List;

/**
 * One stream of a table, from the moment it was enabled to the moment it was disabled: its label,
 * view type, and the change log sequence numbers it covers, cut into shards. Shard i holds the
 * records numbered from its startSequence up to the next shard's (the last one up to
 * endSequence, or without end while the stream is enabled).
 *
 * @param disabledMillis 0 while enabled
 * @param endSequence the first number past the stream; 0 while it is enabled or still closing
 */
public record StreamEpoch(
        String label,
        StreamViewType viewType,
        long createdMillis,
        long disabledMillis,
        long endSequence,
        List<ShardSpan> shards) {

    /** Where one shard starts, and when it was opened. */
    public record ShardSpan(long startSequence, long createdMillis) {}

    public StreamEpoch {
        shards = List.copyOf(shards);
        assert !shards.isEmpty() : "a stream has a shard";
        assert endSequence == 0 || endSequence >= shards.get(shards.size() - 1).startSequence();
    }

    public boolean isEnabled() {
        return disabledMillis == 0;
    }

    /** Disabled, and its last records are all known: no writer can add one any more. */
    public boolean isClosed() {
        return endSequence != 0;
    }

    public StreamEpoch withShards(List<ShardSpan> newShards) {
        return new StreamEpoch(label, viewType, createdMillis, disabledMillis, endSequence, newShards);
    }

    public StreamEpoch disabled(long atMillis) {
        return new StreamEpoch(label, viewType, createdMillis, atMillis, endSequence, shards);
    }

    public StreamEpoch closed(long endSeq) {
        return new StreamEpoch(label, viewType, createdMillis, disabledMillis, endSeq, shards);
    }
}
