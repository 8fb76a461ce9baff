package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.codec.EncodedEquality;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.ItemSize;
import dev.kumiko.model.PatchedItem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored item answered from its bytes (EncodedItem: size from the bytes, JSON by ItemJson)
 * must be indistinguishable from the same item decoded and written by Jackson: same size, same
 * JSON bytes, same map. Random items with every type, nesting, escapes and non-ASCII text.
 */
class StoredItemFormsTest {
    private static final int ITEMS = 3_000;
    private static final int DEPTH_MAX = 4;
    private final Random random = new Random(20261122);

    @Test
    void storedBytesAnswerExactlyAsTheDecodedItem() throws IOException {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> original = item(0);
            byte[] stored = ItemCodec.encode(original);
            Map<String, AttributeValue> decoded = ItemCodec.decode(stored);

            assertThat(EncodedItem.of(stored).sizeBytes())
                    .as("size of %s", decoded)
                    .isEqualTo(ItemSize.of(decoded));
            assertThat(json(EncodedItem.of(stored))).as("JSON of %s", decoded).isEqualTo(json(decoded));
            assertThat(EncodedItem.of(stored)).isEqualTo(decoded);
        }
    }

    /**
     * An item stored before the size header (format version 1) reads as the same item stored with
     * it: same map, size, JSON and equality. Version 1 is made from version 2 by dropping the size.
     */
    @Test
    void anItemStoredWithoutTheSizeHeaderReadsAsWithIt() throws IOException {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> original = item(0);
            byte[] sized = ItemCodec.encode(original);
            byte[] unsized = unsized(sized);
            Map<String, AttributeValue> decoded = ItemCodec.decode(sized);

            assertThat(ItemCodec.decode(unsized)).isEqualTo(decoded);
            assertThat(EncodedItem.of(unsized).sizeBytes())
                    .isEqualTo(EncodedItem.of(sized).sizeBytes())
                    .isEqualTo(ItemSize.of(decoded));
            assertThat(json(EncodedItem.of(unsized))).isEqualTo(json(EncodedItem.of(sized)));
            assertThat(EncodedEquality.compare(unsized, sized)).isEqualTo(EncodedEquality.Answer.SAME);
        }
    }

    /**
     * A stored item encoded again is its stored bytes (a copy from encode, the array itself from
     * encodedForm); one stored without the size header gains it either way.
     */
    @Test
    void aStoredItemEncodesAsItsDecodedCopy() {
        for (int i = 0; i < ITEMS; i++) {
            byte[] stored = ItemCodec.encode(item(0));
            byte[] again = ItemCodec.encode(ItemCodec.decode(stored));
            assertThat(ItemCodec.encode(EncodedItem.of(stored)))
                    .isEqualTo(again)
                    .isEqualTo(stored)
                    .isNotSameAs(stored);
            assertThat(ItemCodec.encodedForm(EncodedItem.of(stored))).isSameAs(stored);
            assertThat(ItemCodec.encode(EncodedItem.of(unsized(stored)))).isEqualTo(stored);
            assertThat(ItemCodec.encodedForm(EncodedItem.of(unsized(stored)))).isEqualTo(stored);
            assertThat(ItemCodec.encodedForm(ItemCodec.decode(stored))).isEqualTo(stored);
        }
    }

    /** Version 1 of a version-2 item: the version byte, then the attributes, without the size varint. */
    private static byte[] unsized(byte[] sized) {
        assertThat(sized[0]).isEqualTo((byte) 2);
        int attributes = 1;
        while ((sized[attributes] & 0x80) != 0) {
            attributes++;
        }
        attributes++;
        byte[] unsized = new byte[1 + sized.length - attributes];
        unsized[0] = 1;
        System.arraycopy(sized, attributes, unsized, 1, sized.length - attributes);
        return unsized;
    }

    /** Every byte value at every place of a word: a word that holds a byte to escape is never passed over. */
    @Test
    void aWordWithAByteToEscapeIsNeverSkipped() {
        for (int place = 0; place < Long.BYTES; place++) {
            for (int b = 0; b < 256; b++) {
                long word = (0x6161616161616161L & ~(0xFFL << (8 * place))) | ((long) b << (8 * place));
                if (flagged(b)) {
                    assertThat(ItemJson.mayHoldSpecial(word))
                            .as("byte %x at %d", b, place)
                            .isTrue();
                }
            }
            assertThat(ItemJson.mayHoldSpecial(0x6161616161616161L)).isFalse();
        }
        for (int i = 0; i < 200_000; i++) {
            long word = random.nextLong();
            boolean holds = false;
            for (int place = 0; place < Long.BYTES; place++) {
                int b = (int) (word >>> (8 * place)) & 0xFF;
                holds |= flagged(b);
            }
            if (holds) {
                assertThat(ItemJson.mayHoldSpecial(word)).as("%x", word).isTrue();
            }
        }
    }

    /** A byte mayHoldSpecial must flag: a control, '"', '\\', or a lead with its top four bits set. */
    private static boolean flagged(int b) {
        return b < 0x20 || b == '"' || b == '\\' || b >= 0xF0;
    }

    /** One character to escape at every offset of strings of 0-40 bytes: the word steps land on each. */
    @Test
    void anEscapeAtEveryOffsetIsWrittenAsJacksonWritesIt() throws IOException {
        String[] escapes = {"\"", "\\", "\n", "\u0000", "\u001f", "\ud83d\ude00", "\u00e9", "\u20ac"};
        for (int length = 0; length <= 40; length++) {
            for (int at = 0; at <= length; at++) {
                for (String escape : escapes) {
                    String text = "x".repeat(at) + escape + "y".repeat(length - at);
                    Map<String, AttributeValue> original = Map.of("a", AttributeValue.s(text));
                    byte[] stored = ItemCodec.encode(original);
                    assertThat(json(EncodedItem.of(stored))).as("%s", text).isEqualTo(json(ItemCodec.decode(stored)));
                }
            }
        }
    }

    /**
     * Text without escapes of 0-40 bytes (the whole-word copy), and with one at every offset, as a
     * value and as a name, behind a first attribute of 0-9 bytes: a string shorter than a word is
     * read as the word that ends with it, so each length is tried at each place in the item's first
     * words. The alphabet holds the bytes next to the ones to escape ('!', '#', '[', ']', DEL) and
     * 2- and 3-byte characters, which are copied as they are.
     */
    @Test
    void stringsOfEveryLengthAtEveryPlaceAreWrittenAsJacksonWritesThem() throws IOException {
        String[] escapes = {"", "\"", "\\", "\n", "\u0000", "\ud83d\ude00"};
        for (int prefix = 0; prefix <= 9; prefix++) {
            for (int length = 0; length <= 40; length++) {
                for (String escape : escapes) {
                    for (int at = 0; at <= (escape.isEmpty() ? 0 : length); at++) {
                        String text = plainText(at) + escape + plainText(length - at);
                        Map<String, AttributeValue> asValue = new LinkedHashMap<>();
                        asValue.put("p".repeat(prefix), AttributeValue.s(text));
                        asValue.put(text + "n", AttributeValue.s("v"));
                        byte[] stored = ItemCodec.encode(asValue);
                        assertThat(json(EncodedItem.of(stored)))
                                .as("%s after %d", text, prefix)
                                .isEqualTo(json(ItemCodec.decode(stored)));
                    }
                }
            }
        }
    }

    /**
     * Names and values on both sides of a one-byte length (127 and 128 bytes and around), plain and
     * with an escape, as strings and numbers, between values of other types: the run of plain
     * scalars (ItemJson.plainScalars) hands each such attribute to the general path and takes up
     * the next one, and both must write what Jackson writes.
     */
    @Test
    void scalarsAroundAOneByteLengthBetweenOtherValuesAreWrittenAsJacksonWritesThem() throws IOException {
        AttributeValue[] others = {
            AttributeValue.NULL,
            AttributeValue.m(Map.of("k", AttributeValue.s("v"))),
            AttributeValue.s("\n"),
            new AttributeValue.N(DynamoNumber.of(7))
        };
        for (int length = 124; length <= 131; length++) {
            for (String escape : new String[] {"", "\""}) {
                String text = plainText(length - escape.length()) + escape;
                for (AttributeValue other : others) {
                    Map<String, AttributeValue> item = new LinkedHashMap<>();
                    item.put("a", AttributeValue.s("first"));
                    item.put(text, AttributeValue.s(text));
                    item.put("o", other);
                    item.put("n" + length, new AttributeValue.N(DynamoNumber.parse("1".repeat(38))));
                    item.put(text + "v", AttributeValue.s("short"));
                    byte[] stored = ItemCodec.encode(item);
                    assertThat(json(EncodedItem.of(stored)))
                            .as("%d bytes, %s", length, other)
                            .isEqualTo(json(ItemCodec.decode(stored)));
                }
            }
        }
    }

    private static String plainText(int lengthBytes) {
        String alphabet = "a!#[]~\u007f/ Z9\u00e9\u20ac";
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.toString().getBytes(StandardCharsets.UTF_8).length < lengthBytes; i++) {
            b.append(alphabet.charAt(i % alphabet.length()));
        }
        // A 2- or 3-byte character may overshoot: trim with ASCII to the exact length.
        while (b.toString().getBytes(StandardCharsets.UTF_8).length > lengthBytes) {
            b.setLength(b.length() - 1);
            while (b.toString().getBytes(StandardCharsets.UTF_8).length < lengthBytes) {
                b.append('x');
            }
        }
        return b.toString();
    }

    /**
     * A page written by {@link JsonOut#items} (stored items straight into the body, past the
     * generator) reads as the same page written item by item from the decoded maps, with the
     * members around it in place: empty, one item, many, and with one item already decoded.
     */
    @Test
    void aPageOfStoredItemsIsWrittenAsTheDecodedItems() throws IOException {
        for (int i = 0; i < ITEMS / 10; i++) {
            List<EncodedItem> stored = new ArrayList<>();
            List<Map<String, AttributeValue>> decoded = new ArrayList<>();
            for (int n = random.nextInt(6); n > 0; n--) {
                byte[] bytes = ItemCodec.encode(item(0));
                stored.add(EncodedItem.of(bytes));
                decoded.add(ItemCodec.decode(bytes));
            }
            if (!stored.isEmpty() && random.nextInt(4) == 0) {
                stored.get(random.nextInt(stored.size())).entrySet().iterator().next(); // a filter decoded it
            }
            assertThat(page(stored)).isEqualTo(page(decoded));
        }
    }

    /** {"Items":[...],"Count":n,"Key":{...}}: members on both sides of the array. */
    private static String page(List<? extends Map<String, AttributeValue>> items) throws IOException {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeFieldName("Items");
            if (items.stream().allMatch(item -> item instanceof EncodedItem)) {
                JsonOut.items(g, items);
            } else {
                g.writeStartArray();
                for (Map<String, AttributeValue> item : items) {
                    JsonOut.item(g, item);
                }
                g.writeEndArray();
            }
            g.writeNumberField("Count", items.size());
            g.writeFieldName("Key");
            JsonOut.item(g, Map.of("k", AttributeValue.s("v")));
            g.writeEndObject();
            return new String(out.toBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aDecodedStoredItemIsWrittenFromItsMap() throws IOException {
        Map<String, AttributeValue> original = new LinkedHashMap<>();
        original.put("PK", AttributeValue.s("a\"b\\c\u0001\u00e9\ud83d\ude00"));
        original.put("n", AttributeValue.n("-0.00120"));
        EncodedItem stored = EncodedItem.of(ItemCodec.encode(original));
        String fromBytes = json(stored);
        stored.entrySet().iterator().next(); // a filter or projection walked the item
        assertThat(stored.isDecoded()).isTrue();
        assertThat(json(stored))
                .isEqualTo(fromBytes)
                .isEqualTo(
                        "{\"Items\":[{\"PK\":{\"S\":\"a\\\"b\\\\c\\u0001\u00e9\\uD83D\\uDE00\"},\"n\":{\"N\":\"-0.0012\"}}]}");
    }

    @Test
    void attributesLookedUpInTheBytesAnswerAsTheDecodedItem() {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> original = item(0);
            byte[] stored = ItemCodec.encode(original);
            Map<String, AttributeValue> decoded = ItemCodec.decode(stored);
            for (String name : original.keySet()) {
                EncodedItem lazy = EncodedItem.of(stored);
                assertThat(lazy.get(name)).as("%s of %s", name, decoded).isEqualTo(decoded.get(name));
                assertThat(lazy.containsKey(text(6))).isEqualTo(decoded.containsKey(lastText));
                assertThat(lazy.size()).isEqualTo(decoded.size());
                assertThat(lazy.isDecoded()).isFalse();
            }
        }
    }

    @Test
    void encodedEqualityNeverContradictsTheMaps() {
        int decided = 0;
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> a = item(0);
            Map<String, AttributeValue> b = switch (random.nextInt(4)) {
                case 0 -> a;
                case 1 -> reversed(a);
                case 2 -> changedOne(a);
                default -> item(0);
            };
            EncodedEquality.Answer answer = EncodedEquality.compare(ItemCodec.encode(a), ItemCodec.encode(b));
            boolean equal = ItemCodec.decode(ItemCodec.encode(a)).equals(ItemCodec.decode(ItemCodec.encode(b)));
            if (answer != EncodedEquality.Answer.UNKNOWN) {
                decided++;
                assertThat(answer == EncodedEquality.Answer.SAME)
                        .as("%s vs %s", a, b)
                        .isEqualTo(equal);
            }
        }
        assertThat(decided).isGreaterThan(ITEMS / 2);
    }

    /**
     * An update's item over a stored one (PatchedItem) is the same item as a copy of the stored
     * item with the same puts and removes: same entries in the same order, same size, and the same
     * encoded bytes, whether the stored item has the size header or not. Changes replace, remove and
     * add attributes, remove absent ones, and change one attribute twice.
     */
    @Test
    void anUpdatedStoredItemIsItsCopyWithTheSameChanges() {
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> original = item(0);
            byte[] sized = ItemCodec.encode(original);
            byte[] stored = random.nextInt(4) == 0 ? unsized(sized) : sized;
            PatchedItem patched = new PatchedItem(EncodedItem.of(stored));
            Map<String, AttributeValue> copy = new LinkedHashMap<>(ItemCodec.decode(stored));
            List<String> names = new ArrayList<>(original.keySet());
            for (int c = random.nextInt(6); c > 0; c--) {
                String name = random.nextInt(3) == 0 ? text(6) : names.get(random.nextInt(names.size()));
                if (random.nextInt(3) == 0) {
                    assertThat(patched.remove(name)).isEqualTo(copy.remove(name));
                } else {
                    AttributeValue value = value(1);
                    assertThat(patched.put(name, value)).isEqualTo(copy.put(name, value));
                }
            }
            assertThat(new ArrayList<>(patched.entrySet()))
                    .as("changes of %s", original)
                    .isEqualTo(new ArrayList<>(copy.entrySet()));
            assertThat(ItemSize.of(patched)).isEqualTo(ItemSize.of(copy));
            assertThat(ItemCodec.encode(patched, ItemSize.of(patched))).isEqualTo(ItemCodec.encode(copy));
        }
    }

    /**
     * More changes than the splice takes, and more base reads than the patched item keeps: the item
     * is encoded from its merged map, to the same bytes. The 30 names are distinct (7 and 45 share no
     * factor), and 3 of them are not in the item.
     */
    @Test
    void anUpdateOfManyAttributesEncodesAsItsCopy() {
        Map<String, AttributeValue> original = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            original.put("a" + i, AttributeValue.n(i));
        }
        PatchedItem patched = new PatchedItem(EncodedItem.of(ItemCodec.encode(original)));
        Map<String, AttributeValue> copy = new LinkedHashMap<>(original);
        for (int i = 0; i < 30; i++) {
            patched.put("a" + (i * 7 % 45), AttributeValue.s("v" + i));
            copy.put("a" + (i * 7 % 45), AttributeValue.s("v" + i));
        }
        assertThat(ItemCodec.encode(patched, ItemSize.of(patched))).isEqualTo(ItemCodec.encode(copy));
        assertThat(new ArrayList<>(patched.entrySet())).isEqualTo(new ArrayList<>(copy.entrySet()));
    }

    private static Map<String, AttributeValue> reversed(Map<String, AttributeValue> item) {
        List<String> names = new ArrayList<>(item.keySet());
        java.util.Collections.reverse(names);
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        names.forEach(n -> out.put(n, item.get(n)));
        return out;
    }

    private Map<String, AttributeValue> changedOne(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> out = new LinkedHashMap<>(item);
        String name = new ArrayList<>(item.keySet()).get(random.nextInt(item.size()));
        out.put(name, value(1));
        return out;
    }

    /** The item inside a one-element array, so the raw value's separators are exercised too. */
    private static String json(Map<String, AttributeValue> item) throws IOException {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            g.writeArrayFieldStart("Items");
            JsonOut.item(g, item);
            g.writeEndArray();
            g.writeEndObject();
            return new String(out.toBytes(), StandardCharsets.UTF_8);
        }
    }

    private Map<String, AttributeValue> item(int depth) {
        int n = random.nextInt(depth == 0 ? 8 : 4) + (depth == 0 ? 1 : 0);
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(text(6), value(depth));
        }
        return m;
    }

    private AttributeValue value(int depth) {
        int kind = random.nextInt(depth >= DEPTH_MAX ? 9 : 11);
        return switch (kind) {
            case 0 -> AttributeValue.s(text(30));
            case 1 -> new AttributeValue.N(number());
            case 2 -> AttributeValue.b(bytes());
            case 3 -> new AttributeValue.SS(distinct(() -> text(10)));
            case 4 -> new AttributeValue.NS(distinctNumbers());
            case 5 -> new AttributeValue.BS(List.of(bytes(), bytes()));
            case 6 -> AttributeValue.NULL;
            case 7 -> AttributeValue.bool(random.nextBoolean());
            case 8 -> AttributeValue.s("");
            case 9 -> AttributeValue.m(item(depth + 1));
            default -> {
                List<AttributeValue> l = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    l.add(value(depth + 1));
                }
                yield AttributeValue.l(l);
            }
        };
    }

    /** Text mixing ASCII, JSON's special characters, controls, 2/3/4-byte UTF-8 and lone surrogates. */
    private String lastText;

    private String text(int lengthMax) {
        lastText = textOf(lengthMax);
        return lastText;
    }

    private String textOf(int lengthMax) {
        String[] pieces = {
            "a",
            "Z",
            "0",
            " ",
            "\"",
            "\\",
            "/",
            "\n",
            "\t",
            "\b",
            "\f",
            "\r",
            "\u0000",
            "\u001f",
            "\u007f",
            "\u00e9",
            "\u20ac",
            "\u2028",
            "\ud83d\ude00",
            "\ud800",
            "#",
            "USER#"
        };
        StringBuilder b = new StringBuilder();
        for (int i = random.nextInt(lengthMax) + 1; i > 0; i--) {
            b.append(pieces[random.nextInt(pieces.length)]);
        }
        return b.toString();
    }

    private DynamoNumber number() {
        String[] shapes = {
            "0",
            "-0",
            "1200",
            "0.00120",
            "-17.5",
            "100.5",
            "99999999999999999999999999999999999999",
            "1E+125",
            "-1E-130",
            "3.14159",
            "42",
            "-0.000000001"
        };
        if (random.nextBoolean()) {
            return DynamoNumber.parse(shapes[random.nextInt(shapes.length)]);
        }
        return DynamoNumber.parse((random.nextBoolean() ? "-" : "") + Math.abs(random.nextLong() % 1_000_000_000L) + "."
                + random.nextInt(100_000));
    }

    private List<DynamoNumber> distinctNumbers() {
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        List<DynamoNumber> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            DynamoNumber n = number();
            if (seen.add(n.toString())) {
                out.add(n);
            }
        }
        return out;
    }

    private List<String> distinct(java.util.function.Supplier<String> next) {
        return new ArrayList<>(new LinkedHashSet<>(List.of(next.get(), next.get(), next.get())));
    }

    private byte[] bytes() {
        byte[] b = new byte[random.nextInt(20) + 1];
        random.nextBytes(b);
        return b;
    }
}
