package dev.kumiko.engine.streams;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * Shard iterators: "streamArn|1|payload", like DynamoDB's (API Reference GetRecords example:
 * "arn:aws:dynamodb:...:table/Forum/stream/2015-05-20T20:51:10.252|1|AAAAAAAAAAEvJp6D+zaQ..."),
 * where the payload names the table incarnation (its TableId, so an iterator of a deleted and
 * recreated table reads nothing of the new one), the shard, the next change log number to read
 * and when the iterator was handed out. Stateless: the server keeps nothing per iterator.
 */
final class ShardIterators {
    /** DynamoDB's: a shard iterator expires 15 minutes after it was returned. */
    static final long LIFETIME_MILLIS = 15L * 60 * 1000;

    private static final String SEPARATOR = "|1|";

    private ShardIterators() {}

    /** What an iterator says. */
    record Position(String streamArn, String tableId, String shardId, long nextSequence, long issuedMillis) {}

    static String encode(Position p) {
        String payload = p.tableId() + "|" + p.shardId() + "|" + p.nextSequence() + "|" + p.issuedMillis();
        return p.streamArn()
                + SEPARATOR
                + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    }

    /** The position an iterator holds, or null if the string is not an iterator Kumiko gave. */
    static @Nullable Position decode(String iterator) {
        int at = iterator.indexOf(SEPARATOR);
        if (at <= 0) {
            return null;
        }
        String[] parts;
        try {
            parts = new String(
                            Base64.getUrlDecoder().decode(iterator.substring(at + SEPARATOR.length())),
                            StandardCharsets.UTF_8)
                    .split("\\|", -1);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (parts.length != 4) {
            return null;
        }
        try {
            return new Position(
                    iterator.substring(0, at), parts[0], parts[1], Long.parseLong(parts[2]), Long.parseLong(parts[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
