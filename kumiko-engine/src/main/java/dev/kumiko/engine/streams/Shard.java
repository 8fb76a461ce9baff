package dev.kumiko.engine.streams;

import dev.kumiko.catalog.StreamEpoch;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One shard of a stream as readers see it: its id, its parent, the change log numbers it covers
 * ({@code endSequence} 0 while it is open) and when it was opened and closed (0 while open).
 */
record Shard(
        String shardId,
        @Nullable String parentShardId,
        long startSequence,
        long endSequence,
        long createdMillis,
        long closedMillis) {

    boolean isOpen() {
        return endSequence == 0;
    }

    /**
     * The shards of a stream, oldest first. A shard's id is "shardId-", its creation time in
     * zero-padded milliseconds, and eight hex digits from the stream label and the shard's place,
     * like DynamoDB's (shardId-00000001414562045508-2bac9cd2): ids sort by age, and a shard's id
     * never changes once given.
     */
    static List<Shard> of(StreamEpoch e) {
        List<StreamEpoch.ShardSpan> spans = e.shards();
        List<Shard> out = new ArrayList<>(spans.size());
        String parent = null; // the oldest kept shard's parent, if any, was forgotten with its records
        for (int i = 0; i < spans.size(); i++) {
            StreamEpoch.ShardSpan s = spans.get(i);
            boolean last = i == spans.size() - 1;
            long end = !last ? spans.get(i + 1).startSequence() : e.endSequence();
            long closed = !last ? spans.get(i + 1).createdMillis() : e.isClosed() ? e.disabledMillis() : 0;
            String id = id(e.label(), s);
            out.add(new Shard(id, parent, s.startSequence(), end, s.createdMillis(), closed));
            parent = id;
        }
        return out;
    }

    static String id(String label, StreamEpoch.ShardSpan s) {
        int tag = (label + "/" + s.startSequence() + "/" + s.createdMillis()).hashCode();
        return "shardId-" + String.format("%020d", s.createdMillis()) + "-" + String.format("%08x", tag);
    }
}
