package dev.kumiko.engine.read;

import dev.kumiko.expr.KeyCondition.SortKeyCondition;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeyEncoding;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Turns a sort-key condition into the exact store range of matching entries under a prefix (a
 * partition, plus any leading sort-key equalities), so that a Query reads only the entries it
 * returns (plus none). Works because the key encoding is order-preserving and self-delimiting: an
 * entry's key is prefix + enc(sortKey) + whatever follows (nothing for a table item, the table key
 * for an index entry), and no other value's encoding starts with enc(v), so the entries with sort
 * key v are exactly those starting with prefix + enc(v).
 */
final class SortKeyRange {
    private SortKeyRange() {}

    static KeyRange of(byte[] prefix, @Nullable SortKeyCondition c) {
        byte[] all = Objects.requireNonNull(Bytes.prefixEnd(prefix), "a key space prefix is never all 0xFF");
        if (c == null) {
            return new KeyRange(prefix, all);
        }
        switch (c.operator()) {
            case EQ:
                return new KeyRange(key(prefix, c.value()), after(prefix, c.value()));
            case LT:
                return new KeyRange(prefix, key(prefix, c.value()));
            case LE:
                return new KeyRange(prefix, after(prefix, c.value()));
            case GT:
                return new KeyRange(after(prefix, c.value()), all);
            case GE:
                return new KeyRange(key(prefix, c.value()), all);
            case BETWEEN:
                return new KeyRange(
                        key(prefix, c.value()),
                        after(prefix, Objects.requireNonNull(c.upper(), "BETWEEN has its upper bound")));
            case BEGINS_WITH:
                return beginsWith(prefix, c.value(), all);
            default:
                throw new AssertionError(c.operator());
        }
    }

    private static byte[] key(byte[] prefix, AttributeValue v) {
        ByteSink out = new ByteSink(prefix.length + 16);
        out.put(prefix);
        KeyEncoding.encode(out, v);
        return out.toArray();
    }

    /** The first key after every entry whose sort key is v. */
    private static byte[] after(byte[] prefix, AttributeValue v) {
        return Objects.requireNonNull(Bytes.prefixEnd(key(prefix, v)), "a key space prefix is never all 0xFF");
    }

    /** Escaped prefix bytes without the terminator: every longer value shares them. */
    private static KeyRange beginsWith(byte[] prefix, AttributeValue v, byte[] partitionEnd) {
        byte[] raw = v instanceof AttributeValue.S s
                ? s.value().getBytes(StandardCharsets.UTF_8)
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
