package dev.kumiko.codec;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.SizedItem;
import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A stored item as read from the store: an immutable map that decodes its bytes on first use.
 * A read that hands whole items back (a Query page, a GetItem) never touches the map, so the
 * server writes the stored bytes straight to JSON (ItemJson) and the size comes from the bytes.
 */
public final class EncodedItem extends AbstractMap<String, AttributeValue> implements SizedItem {
    private final byte[] encoded;
    // Decoding is pure, so two threads racing to decode build equal maps; volatile publishes it whole.
    private volatile @Nullable Map<String, AttributeValue> decoded;
    // An int (items are at most 400 KB) so that a racing write cannot tear it.
    private int sizeBytes = -1;
    // Lookups answered from the bytes so far; past LOOKUPS_BEFORE_DECODE the map is cheaper. A racing
    // update may lose a count, which only delays the decode.
    private int lookups;
    /**
     * A lookup scans the bytes; after this many, decoding the whole map once is cheaper. An
     * UpdateItem on a table with a global secondary index reads six attributes of the item it
     * updates (PatchedItem): the one it adds to and the one it sets, for the new size; the index's
     * key and the table's, for the index entry's key.
     */
    static final int LOOKUPS_BEFORE_DECODE = 8;

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

    /**
     * Before the map is decoded, the first few lookups read the one attribute from the bytes: a
     * write's condition on the key or its index planning looks at two or three attributes of the
     * item it replaces, and decoding the whole item for them was most of a PutItem's garbage.
     */
    @Override
    public @Nullable AttributeValue get(Object key) {
        Map<String, AttributeValue> m = decoded;
        if (m != null || !(key instanceof String name) || lookups >= LOOKUPS_BEFORE_DECODE) {
            return map().get(key);
        }
        lookups++;
        return ItemCodec.decodeAttribute(encoded, name);
    }

    /**
     * Whether the item holds name with a value equal to value (not null). While the map is not
     * decoded the bytes answer where they can ({@link ItemCodec#compareAttribute}), which decodes
     * nothing: a write's index planning asks this of each index key attribute of the item it
     * replaces, and most writes leave those alone.
     */
    public boolean attributeEquals(String name, AttributeValue value) {
        if (decoded == null) {
            EncodedEquality.Answer answer = ItemCodec.compareAttribute(encoded, name, value);
            if (answer != EncodedEquality.Answer.UNKNOWN) {
                return answer == EncodedEquality.Answer.SAME;
            }
        }
        AttributeValue held = get(name);
        return held != null && held.equals(value);
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null; // an item holds no null values
    }

    @Override
    public int size() {
        Map<String, AttributeValue> m = decoded;
        return m != null ? m.size() : ItemCodec.attributeCount(encoded);
    }
}
