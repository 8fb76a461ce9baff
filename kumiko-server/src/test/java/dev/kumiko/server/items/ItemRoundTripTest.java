package dev.kumiko.server.items;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Every AttributeValue type survives a put and a get on both stores, numbers come back normalized. */
class ItemRoundTripTest {

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }

    static AttributeValue b(byte... bytes) {
        return AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void everyTypeRoundTrips(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, "types");
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("PK", s("p"));
            item.put("SK", s("s"));
            item.put("s", s("héllo ✓ \u0000 \"quoted\""));
            item.put("emptyS", s(""));
            item.put("n1e3", n("1e3"));
            item.put("negZero", n("-0.0"));
            item.put("frac", n("0.50"));
            item.put("neg", n("-12.340E2"));
            item.put("tiny", n("1E-130"));
            item.put("big", n("9.9E+125"));
            item.put("bin", b((byte) 0, (byte) 0xff, (byte) 0x80));
            item.put("emptyB", b());
            item.put("ss", AttributeValue.fromSs(List.of("b", "a", "")));
            item.put("ns", AttributeValue.fromNs(List.of("10", "1.50", "-3")));
            item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("y"))));
            item.put(
                    "m",
                    AttributeValue.fromM(Map.of(
                            "inner",
                            n("007"),
                            "list",
                            AttributeValue.fromL(
                                    List.of(s("a"), AttributeValue.fromBool(false), AttributeValue.fromNul(true))))));
            item.put("emptyM", AttributeValue.fromM(Map.of()));
            item.put("l", AttributeValue.fromL(List.of(n("1"), s("two"), AttributeValue.fromM(Map.of("k", s("v"))))));
            item.put("emptyL", AttributeValue.fromL(List.of()));
            item.put("null", AttributeValue.fromNul(true));
            item.put("bool", AttributeValue.fromBool(true));
            c.putItem(r -> r.tableName("types").item(item));

            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
                c = server.client();
            }
            DynamoDbClient c2 = c;
            Map<String, AttributeValue> got = c2.getItem(
                            r -> r.tableName("types").key(Map.of("PK", s("p"), "SK", s("s"))))
                    .item();

            Map<String, AttributeValue> expected = new LinkedHashMap<>(item);
            expected.put("n1e3", n("1000"));
            expected.put("negZero", n("0"));
            expected.put("frac", n("0.5"));
            expected.put("neg", n("-1234"));
            expected.put("tiny", n("0." + "0".repeat(129) + "1"));
            expected.put("big", n("99" + "0".repeat(124)));
            expected.put(
                    "m",
                    AttributeValue.fromM(Map.of(
                            "inner",
                            n("7"),
                            "list",
                            AttributeValue.fromL(
                                    List.of(s("a"), AttributeValue.fromBool(false), AttributeValue.fromNul(true))))));
            // Set order is not significant; compare sets as sets.
            expected.remove("ss");
            expected.remove("ns");
            expected.remove("bs");
            assertThat(got).containsAllEntriesOf(expected);
            assertThat(got.get("ss").ss()).containsExactlyInAnyOrder("a", "b", "");
            assertThat(got.get("ns").ns()).containsExactlyInAnyOrder("10", "1.5", "-3");
            assertThat(got.get("bs").bs())
                    .containsExactlyInAnyOrder(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("y"));
            assertThat(got).hasSize(item.size());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void putReturnsOldItemOnOverwrite(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, "overwrite");
            Map<String, AttributeValue> first = Map.of("PK", s("p"), "SK", s("s"), "v", n("1"));
            Map<String, AttributeValue> second = Map.of("PK", s("p"), "SK", s("s"), "w", s("2"));
            var none = c.putItem(r -> r.tableName("overwrite").item(first).returnValues("ALL_OLD"));
            assertThat(none.hasAttributes()).isFalse();
            var old = c.putItem(r -> r.tableName("overwrite").item(second).returnValues("ALL_OLD"));
            assertThat(old.attributes()).isEqualTo(first);
            var quiet = c.putItem(r -> r.tableName("overwrite").item(first).returnValues("NONE"));
            assertThat(quiet.hasAttributes()).isFalse();
            assertThat(c.getItem(r -> r.tableName("overwrite").key(Map.of("PK", s("p"), "SK", s("s"))))
                            .item())
                    .isEqualTo(first);
            var deleted = c.deleteItem(r -> r.tableName("overwrite")
                    .key(Map.of("PK", s("p"), "SK", s("s")))
                    .returnValues("ALL_OLD"));
            assertThat(deleted.attributes()).isEqualTo(first);
            var again = c.deleteItem(r -> r.tableName("overwrite")
                    .key(Map.of("PK", s("p"), "SK", s("s")))
                    .returnValues("ALL_OLD"));
            assertThat(again.hasAttributes()).isFalse();
        }
    }
}
