package dev.kumiko.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.model.AttributeValue;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Item and index keys are part of the on-disk format: a store written by one build is read by the
 * next. These pin their bytes, part by part and as whole literals that earlier builds wrote.
 */
class KeyFormatTest {
    private static final AttributeValue PK = AttributeValue.s("p#000042");
    private static final AttributeValue SK = AttributeValue.n("17.5");
    private static final AttributeValue GSI_PK = AttributeValue.s("g#042");
    private static final AttributeValue GSI_SK = AttributeValue.b(new byte[] {0, 1, (byte) 0xFF});
    /** ItemKey.of(7, PK, SK) and IndexKey.of(3, [GSI_PK], [GSI_SK], PK, SK) as the build of 1a40046 wrote them. */
    private static final String ITEM_KEY_HEX = "02000000075aa8e7e7702330303030343200038302080600";

    private static final String INDEX_KEY_HEX =
            "030000000316e1acc267233034320000ff01ff00702330303030343200038302080600";

    @Test
    void itemKeyIsSpaceIdHashThenTheEncodedKey() {
        byte[] pk = KeyEncoding.encode(PK);
        byte[] expected = new ByteSink(64)
                .put(KeySpace.ITEMS)
                .putIntBigEndian(7)
                .putIntBigEndian(KeyHash.of(pk))
                .put(pk)
                .put(KeyEncoding.encode(SK))
                .toArray();
        assertThat(ItemKey.of(7, PK, SK)).isEqualTo(expected);
        assertThat(ItemKey.of(7, PK, null)).isEqualTo(ItemKey.partitionPrefix(7, PK));
        assertThat(ItemKey.partitionPrefix(7, PK)).isEqualTo(Arrays.copyOf(expected, 9 + pk.length));
    }

    @Test
    void indexKeyIsSpaceIdHashOfTheIndexPartitionKeyThenTheKeys() {
        byte[] gsiPk = KeyEncoding.encode(GSI_PK);
        byte[] expected = new ByteSink(64)
                .put(KeySpace.INDEX)
                .putIntBigEndian(3)
                .putIntBigEndian(KeyHash.of(gsiPk))
                .put(gsiPk)
                .put(KeyEncoding.encode(GSI_SK))
                .put(KeyEncoding.encode(PK))
                .put(KeyEncoding.encode(SK))
                .toArray();
        assertThat(IndexKey.of(3, List.of(GSI_PK), List.of(GSI_SK), PK, SK)).isEqualTo(expected);
        assertThat(IndexKey.partitionPrefix(3, List.of(GSI_PK))).isEqualTo(Arrays.copyOf(expected, 9 + gsiPk.length));
    }

    @Test
    void keysAreTheBytesEarlierBuildsWrote() {
        assertThat(HexFormat.of().formatHex(ItemKey.of(7, PK, SK))).isEqualTo(ITEM_KEY_HEX);
        assertThat(HexFormat.of().formatHex(IndexKey.of(3, List.of(GSI_PK), List.of(GSI_SK), PK, SK)))
                .isEqualTo(INDEX_KEY_HEX);
    }

    @Test
    void aLongPartitionKeyGrowsTheBuffer() {
        AttributeValue longPk = AttributeValue.s("x".repeat(1_000));
        byte[] pk = KeyEncoding.encode(longPk);
        byte[] key = ItemKey.of(1, longPk, null);
        assertThat(key).hasSize(9 + pk.length);
        assertThat(hashField(key)).isEqualTo(KeyHash.of(pk));
    }

    private static int hashField(byte[] key) {
        return ((key[5] & 0xFF) << 24) | ((key[6] & 0xFF) << 16) | ((key[7] & 0xFF) << 8) | (key[8] & 0xFF);
    }
}
