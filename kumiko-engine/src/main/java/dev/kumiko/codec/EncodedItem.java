package dev.kumiko.codec;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.SizedItem;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * A stored item as read from the store: an immutable map that decodes its bytes on first use.
 * A read that hands whole items back (a Query page, a GetItem) never touches the map, so the
 * server writes the stored bytes straight to JSON (ItemJson) and the size comes from the bytes.
 */
public final class EncodedItem extends AbstractMap<String, AttributeValue> implements SizedItem {
    private final byte[] encoded;
    // Decoding is pure, so two threads racing to decode build equal maps; volatile publishes it whole.
    private volatile Map<String, AttributeValue> decoded;
    // An int (items are at most 400 KB) so that a racing write cannot tear it.
    private int sizeBytes = -1;

    private EncodedItem(byte[] encoded) {
        this.encoded = encoded;
    }

    public static EncodedItem of(byte[] encoded) {
        assert encoded != null && encoded.length > 0;
        return new EncodedItem(encoded);
    }

    /** The stored bytes; not to be modified. */
    public byte[] encoded() {
        return encoded;
    }

    /** Whether someone looked inside, so the map (not the bytes) is the cheaper way to answer. */
    public boolean isDecoded() {
        return decoded != null;
    }

    @Override
    public long sizeBytes() {
        int s = sizeBytes;
        if (s < 0) {
            s = Math.toIntExact(EncodedItemSize.of(encoded));
            sizeBytes = s;
        }
        return s;
    }

    private Map<String, AttributeValue> map() {
        Map<String, AttributeValue> m = decoded;
        if (m == null) {
            m = ItemCodec.decode(encoded);
            decoded = m;
        }
        return m;
    }

    @Override
    public Set<Entry<String, AttributeValue>> entrySet() {
        return map().entrySet();
    }

    @Override
    public AttributeValue get(Object key) {
        return map().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map().containsKey(key);
    }

    @Override
    public int size() {
        return map().size();
    }
}
