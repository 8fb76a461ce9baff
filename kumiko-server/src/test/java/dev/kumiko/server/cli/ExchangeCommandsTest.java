package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** {@code kumiko export} and {@code kumiko import}: against a running server and against a data directory. */
@Timeout(180)
class ExchangeCommandsTest {
    @TempDir
    Path tmp;

    @Tag("slow")
    @Test
    void exportThenImportAgainstAServerAndADataDirectory() throws Exception {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY)) {
            DynamoDbClient ddb = server.client();
            ddb.createTable(r -> r.tableName("users")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(
                            a -> a.attributeName("id").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("age").attributeType(ScalarAttributeType.N))
                    .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
                    .globalSecondaryIndexes(g -> g.indexName("byAge")
                            .keySchema(k -> k.attributeName("age").keyType(KeyType.HASH))
                            .projection(p -> p.projectionType("KEYS_ONLY"))));
            for (int i = 0; i < 30; i++) {
                Map<String, AttributeValue> item = new HashMap<>();
                item.put("id", AttributeValue.fromS("u" + i));
                item.put("age", AttributeValue.fromN(String.valueOf(20 + i)));
                item.put("tags", AttributeValue.fromSs(List.of("a", "b")));
                ddb.putItem(r -> r.tableName("users").item(item));
            }
            String endpoint = server.endpoint().toString();
            Path dump = tmp.resolve("dump");
            assertThat(run("export", "users", "--to", dump.toString(), "--format", "ION", "--endpoint", endpoint))
                    .isZero();
            assertThat(dump.resolve("kumiko-table.json")).exists();

            assertThat(run("import", "--from", dump.toString(), "--table", "users2", "--endpoint", endpoint))
                    .isZero();
            assertThat(ddb.scan(r -> r.tableName("users2")).items())
                    .containsExactlyInAnyOrderElementsOf(
                            ddb.scan(r -> r.tableName("users")).items());
            assertThat(ddb.describeTable(r -> r.tableName("users2")).table().globalSecondaryIndexes())
                    .hasSize(1);
            // --replace: a reset to the folder's data.
            ddb.deleteItem(r -> r.tableName("users2").key(Map.of("id", AttributeValue.fromS("u1"))));
            assertThat(run(
                            "import",
                            "--from",
                            dump.toString(),
                            "--table",
                            "users2",
                            "--replace",
                            "--endpoint",
                            endpoint))
                    .isZero();
            assertThat(ddb.scan(r -> r.tableName("users2")).count()).isEqualTo(30);
        }

        Path data = tmp.resolve("data");
        assertThat(run("import", "--from", tmp.resolve("dump").toString(), "--data-dir", data.toString()))
                .isZero();
        Path again = tmp.resolve("again");
        assertThat(run("export", "users", "--to", again.toString(), "--data-dir", data.toString()))
                .isZero();
        try (var ids = Files.list(again.resolve("AWSDynamoDB"))) {
            Path summary = ids.findFirst().orElseThrow().resolve("manifest-summary.json");
            assertThat(Files.readString(summary)).contains("\"itemCount\":30", "\"outputFormat\":\"DYNAMODB_JSON\"");
        }
    }

    private static int run(String... args) {
        return Main.commandLine(args).execute(args);
    }
}
