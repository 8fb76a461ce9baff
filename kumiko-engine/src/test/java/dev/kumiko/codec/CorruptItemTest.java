package dev.kumiko.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored item that is cut short or whose length prefix is damaged fails to decode with an error
 * that names the corruption, rather than reading past its slice into the next attribute.
 */
class CorruptItemTest {
    private static Map<String, AttributeValue> item() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", new AttributeValue.S("user#1"));
        item.put("name", new AttributeValue.S("Ada"));
        item.put("blob", new AttributeValue.B(new byte[] {1, 2, 3, 4, 5}));
        return item;
    }

    @Test
    void everyItemCutShortFailsAsCorrupt() {
        byte[] bytes = ItemCodec.encode(item());
        assertThat(ItemCodec.decode(bytes)).isEqualTo(item());
        for (int length = 3; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> ItemCodec.decode(cut))
                    .as("cut to %d bytes", length)
                    .isInstanceOfAny(IllegalStateException.class, ArrayIndexOutOfBoundsException.class);
        }
    }

    @Test
    void aLengthPrefixPastTheEndIsNamed() {
        byte[] bytes = ItemCodec.encode(item());
        // The last attribute's binary is its last 5 bytes, after a one-byte length prefix.
        int prefix = bytes.length - 6;
        assertThat(bytes[prefix]).isEqualTo((byte) 5);
        bytes[prefix] = 6;
        assertThatThrownBy(() -> ItemCodec.decode(bytes))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt item: a slice of 6 bytes");
    }

    @Test
    void randomDamageNeverDecodesPastTheBuffer() {
        Random random = new Random(0x6B756D696BL);
        byte[] good = ItemCodec.encode(item());
        for (int i = 0; i < 10_000; i++) {
            byte[] bytes = good.clone();
            bytes[1 + random.nextInt(bytes.length - 1)] = (byte) random.nextInt(256);
            try {
                ItemCodec.decode(bytes);
            } catch (IllegalStateException | IllegalArgumentException | ArrayIndexOutOfBoundsException expected) {
                // decoded or refused; what must not happen is any other failure
            } catch (DynamoException numberText) {
                // a tag damaged into N's: the number parser refuses the slice's text
                assertThat(numberText.getMessage()).contains("numeric value");
            }
        }
    }
}
