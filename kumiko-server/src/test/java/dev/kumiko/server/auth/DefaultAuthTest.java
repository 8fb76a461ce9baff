package dev.kumiko.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.RawHttp;
import dev.kumiko.server.TestServer;
import dev.kumiko.server.Txn;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The default {@code --auth=none}: any key and secret work, as a local development server should. */
class DefaultAuthTest {
    @Test
    void anyKeyIsAcceptedAndOnlyAMissingHeaderIsRefused() {
        try (TestServer server = TestServer.start(TestServer.StoreKind.MEMORY);
                DynamoDbClient a = server.newClient("us-east-1", AwsBasicCredentials.create("AKIAANY", "whatever"));
                DynamoDbClient b = server.newClient("us-east-1", AwsBasicCredentials.create("x", "y"))) {
            Txn.createHashTable(a, "open");
            assertThat(b.listTables().tableNames()).containsExactly("open");
            RawHttp.Response r = RawHttp.post(
                    server.port(),
                    "/",
                    Map.of("Host", "127.0.0.1", "X-Amz-Target", "DynamoDB_20120810.ListTables", "Content-Length", "2"),
                    "{}".getBytes());
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("MissingAuthenticationTokenException");
            assertThat(RawHttp.post(
                                    server.port(),
                                    "/kumiko/admin/ttl/sweep",
                                    Map.of("Host", "127.0.0.1", "Content-Length", "0"),
                                    new byte[0])
                            .status())
                    .as("admin endpoints stay open")
                    .isEqualTo(200);
        }
    }
}
