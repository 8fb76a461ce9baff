package dev.kumiko.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code @KumikoTest} on a {@code @Nested} class whose outer class does not use Kumiko: its own options count. */
class NestedOnlyTest {
    @Nested
    @KumikoTest
    @KumikoTables("tables/orders.json")
    class Inner {
        @Test
        void getsItsOwnTables(DynamoDbClient ddb) {
            assertThat(ddb.listTables().tableNames()).containsExactly("Orders");
        }
    }
}
