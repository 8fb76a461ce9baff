package dev.kumiko.server.items;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * PutItem / GetItem / DeleteItem request validation with DynamoDB's exact messages
 * (docs/notes/error-messages.md §5). One in-memory server for the class; the store-sensitive round
 * trips live in ItemRoundTripTest.
 */
class ItemValidationTest {
    static final String T = "items";
    static final String HASH_ONLY = "items-hash";
    static final String BIN = "items-bin";
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        Fixtures.createTable(c, T);
        c.createTable(b -> b.tableName(HASH_ONLY)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.N))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST));
        c.createTable(b -> b.tableName(BIN)
                .attributeDefinitions(a -> a.attributeName("b").attributeType(ScalarAttributeType.B))
                .keySchema(k -> k.attributeName("b").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }

    /** A valid item for table T with one extra attribute. */
    static Map<String, AttributeValue> item(String name, AttributeValue value) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("PK", s("p"));
        m.put("SK", s("s"));
        m.put(name, value);
        return m;
    }

    static void putFails(Map<String, AttributeValue> item, String message) {
        assertValidation(() -> c.putItem(b -> b.tableName(T).item(item)), message);
    }

    // ---- keys ----

    @Test
    void missingKey() {
        putFails(Map.of("SK", s("s")), "One or more parameter values were invalid: Missing the key PK in the item");
    }

    @Test
    void wrongKeyType() {
        putFails(
                Map.of("PK", n("1"), "SK", s("s")),
                "One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N");
        putFails(
                Map.of("PK", s("p"), "SK", AttributeValue.fromM(Map.of())),
                "One or more parameter values were invalid: Type mismatch for key SK expected: S actual: M");
    }

    @Test
    void emptyStringKey() {
        putFails(
                Map.of("PK", s(""), "SK", s("s")),
                "One or more parameter values are not valid. The AttributeValue "
                        + "for a key attribute cannot contain an empty string value. Key: PK");
        assertValidation(
                () -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "SK", s("")))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
                        + "an empty string value. Key: SK");
    }

    @Test
    void emptyBinaryKey() {
        // UNVERIFIED wording: modelled on the captured empty-string text.
        assertValidation(
                () -> c.putItem(b ->
                        b.tableName(BIN).item(Map.of("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]))))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
                        + "an empty binary value. Key: b");
    }

    @Test
    void hashKeyTooLarge() {
        String message = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size "
                + "limit of2048 bytes";
        putFails(Map.of("PK", s("x".repeat(2049)), "SK", s("s")), message);
        assertValidation(
                () -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("x".repeat(2049)), "SK", s("s")))), message);
        // Multi-byte characters count by UTF-8 bytes: 683 * 3 = 2049.
        putFails(Map.of("PK", s("€".repeat(683)), "SK", s("s")), message);
        c.putItem(b -> b.tableName(T).item(Map.of("PK", s("x".repeat(2048)), "SK", s("s"))));
    }

    @Test
    void rangeKeyTooLarge() {
        String message = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded "
                + "the size limit of 1024 bytes";
        putFails(Map.of("PK", s("p"), "SK", s("y".repeat(1025))), message);
        assertValidation(
                () -> c.deleteItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "SK", s("y".repeat(1025))))), message);
        c.putItem(b -> b.tableName(T).item(Map.of("PK", s("p"), "SK", s("y".repeat(1024)))));
    }

    // ---- item size ----

    @Test
    void itemSizeLimit() {
        // Size = names + values in UTF-8: "PK"+"p" (3) + "SK"+"s" (3) + "data" (4) + the string = 400 KB.
        int atLimit = 400 * 1024 - 10;
        c.putItem(b -> b.tableName(T).item(item("data", s("d".repeat(atLimit)))));
        putFails(item("data", s("d".repeat(atLimit + 1))), "Item size has exceeded the maximum allowed size");
        // A number of 38 digits takes 20 bytes (1 per two significant digits, plus 1).
        var withNumber = item("data", s("d".repeat(atLimit - 20 - 1)));
        withNumber.put("n", n("1".repeat(38)));
        c.putItem(b -> b.tableName(T).item(withNumber));
        withNumber.put("n", n("1".repeat(38) + "0"));
        c.putItem(b -> b.tableName(T).item(withNumber));
        withNumber.put("data", s("d".repeat(atLimit - 20)));
        putFails(withNumber, "Item size has exceeded the maximum allowed size");
    }

    // ---- sets ----

    @Test
    void emptySets() {
        putFails(
                item("ss", AttributeValue.fromSs(List.of())),
                "One or more parameter values were invalid: An string set  may not be empty");
        putFails(
                item("ns", AttributeValue.fromNs(List.of())),
                "One or more parameter values were invalid: An number set  may not be empty");
        putFails(
                item("bs", AttributeValue.fromBs(List.of())),
                "One or more parameter values were invalid: An binary set  may not be empty");
    }

    @Test
    void duplicateSetMembers() {
        putFails(
                item("ss", AttributeValue.fromSs(List.of("X", "X"))),
                "One or more parameter values were invalid: Input collection [X, X] contains duplicates.");
        // NS and BS: the captured full body (with __type) carries the bare text.
        putFails(item("ns", AttributeValue.fromNs(List.of("1", "1.0"))), "Input collection contains duplicates");
        SdkBytes a = SdkBytes.fromUtf8String("A");
        putFails(item("bs", AttributeValue.fromBs(List.of(a, a))), "Input collection contains duplicates");
        // An empty string is a legal set member.
        c.putItem(b -> b.tableName(T).item(item("ss", AttributeValue.fromSs(List.of("", "a")))));
    }

    // ---- numbers ----

    @Test
    void invalidNumbers() {
        putFails(item("n", n("abc")), "The parameter cannot be converted to a numeric value: abc");
        putFails(item("n", n("NaN")), "The parameter cannot be converted to a numeric value: NaN");
        putFails(item("n", n("1".repeat(39))), "Attempting to store more than 38 significant digits in a Number");
        putFails(
                item("n", n("1E+126")),
                "Number overflow. Attempting to store a number with magnitude larger than supported range");
        putFails(
                item("n", n("-1E-131")),
                "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        putFails(
                item("ns", AttributeValue.fromNs(List.of("1", "x"))),
                "The parameter cannot be converted to a numeric value: x");
        c.putItem(b -> b.tableName(T).item(item("n", n("9." + "9".repeat(37) + "E+125"))));
        c.putItem(b -> b.tableName(T).item(item("n", n("-1E-130"))));
        // Trailing zeros are not significant.
        c.putItem(b -> b.tableName(T).item(item("n", n("1".repeat(38) + "000"))));
    }

    // ---- AttributeValue shape ----

    @Test
    void nullFalse() {
        putFails(
                item("x", AttributeValue.builder().nul(false).build()),
                "One or more parameter values were invalid: Null attribute value types must have the value of true");
    }

    @Test
    void attributeValueWithNoType() {
        putFails(
                item("x", AttributeValue.builder().build()),
                "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    }

    @Test
    void attributeValueWithTwoTypes() {
        putFails(
                item("x", AttributeValue.builder().s("a").n("1").build()),
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
                        + "datatypes");
    }

    /** An attribute value made of {@code wraps} nested maps (or lists) around a scalar. */
    static AttributeValue nested(int wraps, boolean lists) {
        AttributeValue v = s("leaf");
        for (int i = 0; i < wraps; i++) {
            v = lists ? AttributeValue.fromL(List.of(v)) : AttributeValue.fromM(Map.of("m", v));
        }
        return v;
    }

    @Test
    void nestingDepth() {
        // 32 levels: the attribute's value and 31 containers below it, the scalar being the 32nd.
        String message = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
                + "beyond supported limit";
        c.putItem(b -> b.tableName(T).item(item("deep", nested(31, false))));
        c.putItem(b -> b.tableName(T).item(item("deep", nested(31, true))));
        putFails(item("deep", nested(32, false)), message);
        putFails(item("deep", nested(32, true)), message);
        var got = c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "SK", s("s"))))
                .item()
                .get("deep");
        assertThat(got).isEqualTo(nested(31, true));
    }

    // ---- ReturnValues ----

    @Test
    void returnValuesOnPutAndDeleteOnlyAllOldOrNone() {
        for (String rv : List.of("UPDATED_NEW", "ALL_NEW", "UPDATED_OLD")) {
            assertValidation(
                    () -> c.putItem(b -> b.tableName(T).item(item("a", s("b"))).returnValues(rv)),
                    "ReturnValues can only be ALL_OLD or NONE");
            assertValidation(
                    () -> c.deleteItem(b -> b.tableName(T)
                            .key(Map.of("PK", s("p"), "SK", s("s")))
                            .returnValues(rv)),
                    "ReturnValues can only be ALL_OLD or NONE");
        }
    }

    @Test
    void returnValuesNotInEnum() {
        // Enum print order: third-party capture (docs/notes/error-messages.md §2).
        assertValidation(
                () -> c.putItem(b -> b.tableName(T).item(item("a", s("b"))).returnValues("EVERYTHING")),
                "1 validation error detected: Value 'EVERYTHING' at 'returnValues' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]");
        // Enum checks precede the table lookup.
        assertValidation(
                () -> c.putItem(b ->
                        b.tableName("no-such-table").item(item("a", s("b"))).returnValues("EVERYTHING")),
                "1 validation error detected: Value 'EVERYTHING' at 'returnValues' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]");
    }

    // ---- GetItem keys ----

    @Test
    void getItemKeyMustMatchSchema() {
        String message = "The provided key element does not match the schema";
        assertValidation(
                () -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "SK", s("s"), "x", s("y")))), message);
        assertValidation(() -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p")))), message);
        assertValidation(() -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "SK", n("1")))), message);
        assertValidation(() -> c.getItem(b -> b.tableName(T).key(Map.of("PK", s("p"), "Other", s("s")))), message);
        assertValidation(() -> c.getItem(b -> b.tableName(HASH_ONLY).key(Map.of("id", s("1")))), message);
        assertValidation(() -> c.deleteItem(b -> b.tableName(T).key(Map.of("PK", s("p")))), message);
    }

    // ---- missing table ----

    @Test
    void itemOperationsOnMissingTable() {
        String message = "Requested resource not found";
        Map<String, AttributeValue> key = Map.of("PK", s("p"), "SK", s("s"));
        assertError(() -> c.putItem(b -> b.tableName("missing").item(key)), "ResourceNotFoundException", message);
        assertError(() -> c.getItem(b -> b.tableName("missing").key(key)), "ResourceNotFoundException", message);
        assertError(() -> c.deleteItem(b -> b.tableName("missing").key(key)), "ResourceNotFoundException", message);
    }
}
