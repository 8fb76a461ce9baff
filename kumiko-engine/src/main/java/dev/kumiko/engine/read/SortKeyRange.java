package dev.kumiko.engine.read;

import dev.kumiko.expr.KeyCondition.SortKeyCondition;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeyEncoding;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Bytes;
import java.nio.charset.StandardCharsets;

/**
 * Turns a sort-key condition into the exact store range of matching items inside one partition,
 * so that a Query reads only the entries it returns (plus none). Works because the key encoding is
 * order-preserving and self-delimiting: an item's key is partitionPrefix + enc(sortKey), and the
 * immediate successor of a key k in byte order is k + 0x00.
 */
final class SortKeyRange {
    private SortKeyRange() {}

    static KeyRange of(byte[] partitionPrefix, SortKeyCondition c) {
        byte[] all = Bytes.prefixEnd(partitionPrefix);
        if (c == null) {
            return new KeyRange(partitionPrefix, all);
        }
        switch (c.operator()) {
            case EQ: return new KeyRange(key(partitionPrefix, c.value()), successor(partitionPrefix, c.value()));
            case LT: return new KeyRange(partitionPrefix, key(partitionPrefix, c.value()));
            case LE: return new KeyRange(partitionPrefix, successor(partitionPrefix, c.value()));
            case GT: return new KeyRange(successor(partitionPrefix, c.value()), all);
            case GE: return new KeyRange(key(partitionPrefix, c.value()), all);
            case BETWEEN: return new KeyRange(key(partitionPrefix, c.value()), successor(partitionPrefix, c.upper()));
            case BEGINS_WITH: return beginsWith(partitionPrefix, c.value(), all);
            default: throw new AssertionError(c.operator());
        }
    }

    private static byte[] key(byte[] prefix, AttributeValue v) {
        ByteSink out = new ByteSink(prefix.length + 16);
        out.put(prefix);
        KeyEncoding.encode(out, v);
        return out.toArray();
    }

    private static byte[] successor(byte[] prefix, AttributeValue v) {
        return Bytes.concat(key(prefix, v), new byte[] {0});
    }

    /** Escaped prefix bytes without the terminator: every longer value shares them. */
    private static KeyRange beginsWith(byte[] prefix, AttributeValue v, byte[] partitionEnd) {
        byte[] raw = v instanceof AttributeValue.S s ? s.value().getBytes(StandardCharsets.UTF_8)
                : ((AttributeValue.B) v).value();
        ByteSink out = new ByteSink(prefix.length + raw.length + 4);
        out.put(prefix);
        KeyEncoding.encodeBytes(out, raw, false);
        byte[] start = out.toArray();
        byte[] end = Bytes.prefixEnd(start);
        if (end == null || Bytes.ORDER.compare(end, partitionEnd) > 0) {
            end = partitionEnd;
        }
        return new KeyRange(start, end);
    }
}
