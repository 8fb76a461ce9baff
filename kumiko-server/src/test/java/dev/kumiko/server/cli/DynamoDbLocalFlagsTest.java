package dev.kumiko.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** DynamoDB Local's start command, unchanged, works with {@code kumiko serve}. */
@Tag("slow") // starts `kumiko serve` JVMs: seconds each, left out of -Pquick
class DynamoDbLocalFlagsTest {
    @TempDir
    Path dir;

    private static DynamoDbClient client(int port) {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    @Test
    void inMemoryAndNoOpFlagsAreAcceptedWithOneNoteEach() throws Exception {
        try (CliProcess cli = CliProcess.start(
                        dir,
                        "serve",
                        "-inMemory",
                        "-port",
                        "0",
                        "-sharedDb",
                        "-cors",
                        "*",
                        "-delayTransientStatuses",
                        "-disableTelemetry");
                DynamoDbClient client = client(cli.awaitListening())) {
            assertThat(client.listTables().tableNames()).isEmpty();
            assertThat(cli.stdout()).contains("(in-memory,");
            assertThat(cli.stderr().strip().split("\n"))
                    .containsExactly(
                            "kumiko: -sharedDb: accepted; Kumiko always serves one database to every access key and region",
                            "kumiko: -cors *: accepted; Kumiko answers CORS requests from any origin",
                            "kumiko: -delayTransientStatuses: ignored; Kumiko does not add delays to table status changes",
                            "kumiko: -disableTelemetry: accepted; Kumiko sends no telemetry");
        }
    }

    @Test
    void dbPathIsTheDataDirectory() throws Exception {
        Path data = dir.resolve("ddb");
        try (CliProcess cli = CliProcess.start(
                        dir.resolve("logs"), "serve", "-dbPath", data.toString(), "-port", "0", "-sharedDb");
                DynamoDbClient client = client(cli.awaitListening())) {
            client.createTable(b -> b.tableName("things")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName("pk")
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName("pk")
                            .keyType(KeyType.HASH)
                            .build()));
            assertThat(cli.stdout())
                    .contains("RocksDB at " + data.toAbsolutePath().normalize() + " (new),");
            assertThat(cli.stderr()).contains("kumiko: -dbPath " + data + ": RocksDB files go in that directory");
        }
        assertThat(data.resolve("CURRENT")).exists();
    }
}
