package dev.kumiko.server.protocol;

import static dev.kumiko.server.Fixtures.createTable;
import static dev.kumiko.server.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** The foundation's happy path through the SDK, on both stores, including a restart on RocksDB. */
class FoundationSmokeTest {
    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void putGetDeleteSurvivesRestart(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(c, "things");
            c.putItem(b -> b.tableName("things")
                    .item(Map.of(
                            "PK",
                            s("a"),
                            "SK",
                            s("1"),
                            "n",
                            AttributeValue.builder().n("01.50").build())));
            var got = c.getItem(b -> b.tableName("things").key(Map.of("PK", s("a"), "SK", s("1"))))
                    .item();
            assertThat(got.get("n").n()).isEqualTo("1.5");
            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
                c = server.client();
            }
            DynamoDbClient c2 = c;
            assertThat(c2.describeTable(b -> b.tableName("things")).table().itemCount())
                    .isEqualTo(1);
            var old = c2.deleteItem(b -> b.tableName("things")
                            .key(Map.of("PK", s("a"), "SK", s("1")))
                            .returnValues("ALL_OLD"))
                    .attributes();
            assertThat(old).containsEntry("PK", s("a"));
            assertThat(c2.getItem(b -> b.tableName("things").key(Map.of("PK", s("a"), "SK", s("1"))))
                            .hasItem())
                    .isFalse();
            c2.deleteTable(b -> b.tableName("things"));
            assertThatThrownBy(() -> c2.describeTable(b -> b.tableName("things")))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageStartingWith("Requested resource not found: Table: things not found");
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void missingKeyIsRejectedWithDynamoDbsMessage(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            createTable(c, "things");
            assertThatThrownBy(() -> c.putItem(b -> b.tableName("things").item(Map.of("PK", s("a")))))
                    .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                        assertThat(e.awsErrorDetails().errorMessage())
                                .isEqualTo("One or more parameter values were invalid: Missing the key SK in the item");
                    });
        }
    }
}
