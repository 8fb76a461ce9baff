package dev.kumiko.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.server.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableCreationParameters;

/**
 * An ImportTable retried with a ClientToken already used is compared with the first import by its
 * table name. A retry whose TableCreationParameters has no TableName was a NullPointerException
 * (a 500; found by NullAway): it is a 400 now.
 */
class ImportClientTokenTest {
    @TempDir
    static Path tmp;

    static TestServer server;
    static DynamoDbClient ddb;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        ExchangeService.start(server.engine(), ExchangeSettings.defaults().withImportLogDir(tmp.resolve("logs")));
        ddb = server.client();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRetryWithTheSameTokenAndNoTableNameIsAClientError() throws Exception {
        Path dir = tmp.resolve("source");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("one.csv"), "pk\na\n");
        String first = ddb.importTable(r -> r.clientToken("token-1")
                        .s3BucketSource(s -> s.s3Bucket("file:" + dir))
                        .inputFormat(InputFormat.CSV)
                        .tableCreationParameters(creation("imported")))
                .importTableDescription()
                .importArn();
        assertThat(first).contains("/import/");

        TableCreationParameters nameless =
                creation("imported").toBuilder().tableName(null).build();
        assertThatThrownBy(() -> ddb.importTable(r -> r.clientToken("token-1")
                        .s3BucketSource(s -> s.s3Bucket("file:" + dir))
                        .inputFormat(InputFormat.CSV)
                        .tableCreationParameters(nameless)))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ImportConflictException");
                });
    }

    private static TableCreationParameters creation(String name) {
        return TableCreationParameters.builder()
                .tableName(name)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("pk")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .build();
    }
}
