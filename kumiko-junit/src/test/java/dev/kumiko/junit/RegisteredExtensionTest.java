package dev.kumiko.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.embedded.Kumiko;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code @RegisterExtension} with options in code; without reset, tests of the class share data; a
 * client built by the application itself finds the server through {@code aws.endpointUrlDynamoDb}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegisteredExtensionTest {
    @RegisterExtension
    static final KumikoExtension KUMIKO =
            new KumikoExtension().tables("tables/orders.json").ttlSweepIntervalMillis(0);

    @Test
    @Order(1)
    void writes(DynamoDbClient ddb) {
        ddb.putItem(b ->
                b.tableName("Orders").item(Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromS("s"))));
    }

    @Test
    @Order(2)
    void withoutResetTheNextTestSeesTheWrite(DynamoDbClient ddb) {
        assertThat(ddb.scan(b -> b.tableName("Orders")).count()).isEqualTo(1);
    }

    @Test
    @Order(3)
    void applicationClientsFindTheServerByTheSystemProperty(Kumiko kumiko) {
        assertThat(System.getProperty("aws.endpointUrlDynamoDb"))
                .isEqualTo(kumiko.endpoint().toString());
        assertThat(System.getProperty("aws.endpointUrlDynamodb"))
                .isEqualTo(kumiko.endpoint().toString());
        // What application code does: no endpointOverride, the SDK reads the property.
        try (DynamoDbClient own = DynamoDbClient.builder()
                .region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .build()) {
            assertThat(own.listTables().tableNames()).containsExactly("Orders");
        }
    }

    @Nested
    class Inner {
        @Test
        void sharesTheOuterServer(Kumiko kumiko, DynamoDbClient ddb) {
            assertThat(URI.create(System.getProperty("aws.endpointUrlDynamodb")))
                    .isEqualTo(kumiko.endpoint());
            assertThat(ddb.listTables().tableNames()).containsExactly("Orders");
        }
    }
}
