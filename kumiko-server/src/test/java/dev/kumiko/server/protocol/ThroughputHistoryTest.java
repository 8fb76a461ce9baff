package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.server.ManualClock;
import dev.kumiko.server.TestServer;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * ProvisionedThroughput's LastIncreaseDateTime, LastDecreaseDateTime and NumberOfDecreasesToday
 * after UpdateTable, for the table and a GSI, kept across a restart.
 */
class ThroughputHistoryTest {
    /** 2026-03-01T10:00:00Z: a day boundary is 14 hours ahead. */
    private static final long START_MILLIS = 1_772_359_200_000L;

    @Tag("slow")
    @Test
    void increasesAndDecreasesAreStampedAndSurviveRestart() {
        ManualClock clock = new ManualClock(START_MILLIS);
        try (TestServer server = TestServer.start(TestServer.StoreKind.ROCKSDB, EngineSettings.DEFAULTS, clock)) {
            DynamoDbClient c = server.client();
            c.createTable(b -> b.tableName("Tab")
                    .billingMode(BillingMode.PROVISIONED)
                    .attributeDefinitions(
                            a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                    .globalSecondaryIndexes(g -> g.indexName("Gsi")
                            .keySchema(k -> k.attributeName("g").keyType(KeyType.HASH))
                            .projection(p -> p.projectionType(ProjectionType.ALL))
                            .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)))
                    .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L)));
            ProvisionedThroughputDescription fresh = table(c);
            assertThat(fresh.lastIncreaseDateTime()).isNull();
            assertThat(fresh.lastDecreaseDateTime()).isNull();
            assertThat(fresh.numberOfDecreasesToday()).isZero();

            clock.advanceSeconds(60);
            ProvisionedThroughputDescription up = c.updateTable(b -> b.tableName("Tab")
                            .provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(5L)))
                    .tableDescription()
                    .provisionedThroughput();
            Instant increased = Instant.ofEpochMilli(START_MILLIS + 60_000);
            assertThat(up.lastIncreaseDateTime()).isEqualTo(increased);
            assertThat(up.lastDecreaseDateTime()).isNull();
            assertThat(up.numberOfDecreasesToday()).isZero();

            clock.advanceSeconds(60);
            c.updateTable(b -> b.tableName("Tab")
                    .provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(2L)));
            clock.advanceSeconds(60);
            c.updateTable(b -> b.tableName("Tab")
                    .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(2L)));
            clock.advanceSeconds(60);
            c.updateTable(b -> b.tableName("Tab")
                    .globalSecondaryIndexUpdates(u -> u.update(x -> x.indexName("Gsi")
                            .provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(9L)))));

            server.restart();
            c = server.client();
            ProvisionedThroughputDescription after = table(c);
            assertThat(after.readCapacityUnits()).isEqualTo(3L);
            assertThat(after.lastIncreaseDateTime()).isEqualTo(increased);
            assertThat(after.lastDecreaseDateTime()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 180_000));
            assertThat(after.numberOfDecreasesToday()).isEqualTo(2L);
            ProvisionedThroughputDescription gsi = index(c);
            // One update that lowers reads and raises writes is both an increase and a decrease.
            Instant both = Instant.ofEpochMilli(START_MILLIS + 240_000);
            assertThat(gsi.lastIncreaseDateTime()).isEqualTo(both);
            assertThat(gsi.lastDecreaseDateTime()).isEqualTo(both);
            assertThat(gsi.numberOfDecreasesToday()).isEqualTo(1L);

            clock.advanceSeconds(14 * 3600);
            ProvisionedThroughputDescription nextDay = table(c);
            assertThat(nextDay.numberOfDecreasesToday()).isZero();
            assertThat(nextDay.lastDecreaseDateTime()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 180_000));
            c.updateTable(b -> b.tableName("Tab")
                    .provisionedThroughput(t -> t.readCapacityUnits(2L).writeCapacityUnits(2L)));
            assertThat(table(c).numberOfDecreasesToday()).isEqualTo(1L);
        }
    }

    private static ProvisionedThroughputDescription table(DynamoDbClient c) {
        return c.describeTable(b -> b.tableName("Tab")).table().provisionedThroughput();
    }

    private static ProvisionedThroughputDescription index(DynamoDbClient c) {
        return c.describeTable(b -> b.tableName("Tab"))
                .table()
                .globalSecondaryIndexes()
                .get(0)
                .provisionedThroughput();
    }
}
