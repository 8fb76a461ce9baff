package dev.kumiko.ignite;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.ignite.client.IgniteClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A connect to a cluster that has Kumiko's tables runs no DDL (IgniteSchema#complete). */
@Tag("slow")
class IgniteSchemaTest {
    @Test
    void aClusterWithEveryTableAndIndexIsComplete() {
        TestCluster.emptyStore().close();
        try (IgniteClient client = IgniteClient.builder()
                .addresses(TestCluster.endpoints().split(","))
                .build()) {
            assertThat(IgniteSchema.complete(client)).isTrue();
            IgniteSchema.ensure(client, 1);
            assertThat(IgniteSchema.complete(client)).isTrue();
        }
    }
}
