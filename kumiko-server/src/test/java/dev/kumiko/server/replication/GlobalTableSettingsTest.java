package dev.kumiko.server.replication;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableGlobalSecondaryIndexSettingsUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Replica;
import software.amazon.awssdk.services.dynamodb.model.ReplicaGlobalSecondaryIndexSettingsDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaGlobalSecondaryIndexSettingsUpdate;
import software.amazon.awssdk.services.dynamodb.model.ReplicaSettingsDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaSettingsUpdate;
import software.amazon.awssdk.services.dynamodb.model.ReplicaStatus;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * DescribeGlobalTableSettings and UpdateGlobalTableSettings on a legacy global table between two
 * Kumiko servers, through the SDK: each region's table is described and changed in its own region.
 */
class GlobalTableSettingsTest {
    static TestServer east;
    static TestServer west;
    static DynamoDbClient e;
    static DynamoDbClient w;

    @BeforeAll
    static void start() {
        east = TestServer.start(TestServer.StoreKind.MEMORY);
        west = TestServer.start(TestServer.StoreKind.MEMORY);
        Regions.link(east, west);
        e = east.newClient(EAST);
        w = west.newClient(WEST);
    }

    @AfterAll
    static void stop() {
        e.close();
        w.close();
        east.close();
        west.close();
    }

    @Test
    void eachRegionsTableIsDescribedWithItsOwnUnits() {
        createProvisioned(e, "described", 5);
        createProvisioned(w, "described", 7);
        link("described");

        List<ReplicaSettingsDescription> replicas = w.describeGlobalTableSettings(b -> b.globalTableName("described"))
                .replicaSettings();
        assertThat(replicas).extracting(ReplicaSettingsDescription::regionName).containsExactly(EAST, WEST);
        ReplicaSettingsDescription westSettings = replicas.get(1);
        assertThat(westSettings.replicaStatus()).isEqualTo(ReplicaStatus.ACTIVE);
        assertThat(westSettings.replicaBillingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
        assertThat(westSettings.replicaProvisionedReadCapacityUnits()).isEqualTo(7L);
        assertThat(westSettings.replicaProvisionedWriteCapacityUnits()).isEqualTo(4L);
        assertThat(westSettings
                        .replicaProvisionedReadCapacityAutoScalingSettings()
                        .autoScalingDisabled())
                .isTrue();
        assertThat(westSettings.replicaTableClassSummary().tableClass()).isEqualTo(TableClass.STANDARD);
        assertThat(replicas.get(0).replicaProvisionedReadCapacityUnits()).isEqualTo(5L);
        ReplicaGlobalSecondaryIndexSettingsDescription index =
                westSettings.replicaGlobalSecondaryIndexSettings().get(0);
        assertThat(index.indexName()).isEqualTo("byV");
        assertThat(index.indexStatusAsString()).isEqualTo("ACTIVE");
        assertThat(index.provisionedReadCapacityUnits()).isEqualTo(3L);
        assertThat(index.provisionedWriteCapacityUnits()).isEqualTo(2L);
    }

    @Test
    void anUpdateChangesTheTableInEveryRegion() {
        createProvisioned(e, "updated", 5);
        createProvisioned(w, "updated", 5);
        link("updated");

        List<ReplicaSettingsDescription> answer = e.updateGlobalTableSettings(b -> b.globalTableName("updated")
                        .globalTableProvisionedWriteCapacityUnits(9L)
                        .globalTableGlobalSecondaryIndexSettingsUpdate(
                                GlobalTableGlobalSecondaryIndexSettingsUpdate.builder()
                                        .indexName("byV")
                                        .provisionedWriteCapacityUnits(8L)
                                        .build())
                        .replicaSettingsUpdate(
                                ReplicaSettingsUpdate.builder()
                                        .regionName(EAST)
                                        .replicaProvisionedReadCapacityUnits(11L)
                                        .build(),
                                ReplicaSettingsUpdate.builder()
                                        .regionName(WEST)
                                        .replicaProvisionedReadCapacityUnits(12L)
                                        .replicaTableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
                                        .replicaGlobalSecondaryIndexSettingsUpdate(
                                                ReplicaGlobalSecondaryIndexSettingsUpdate.builder()
                                                        .indexName("byV")
                                                        .provisionedReadCapacityUnits(6L)
                                                        .build())
                                        .build()))
                .replicaSettings();
        Map<String, Long> reads = answer.stream()
                .collect(Collectors.toMap(
                        ReplicaSettingsDescription::regionName,
                        ReplicaSettingsDescription::replicaProvisionedReadCapacityUnits));
        assertThat(reads).isEqualTo(Map.of(EAST, 11L, WEST, 12L));

        TableDescription westTable =
                w.describeTable(b -> b.tableName("updated")).table();
        assertThat(westTable.provisionedThroughput().readCapacityUnits()).isEqualTo(12L);
        assertThat(westTable.provisionedThroughput().writeCapacityUnits()).isEqualTo(9L);
        assertThat(westTable.tableClassSummary().tableClass()).isEqualTo(TableClass.STANDARD_INFREQUENT_ACCESS);
        assertThat(westTable
                        .globalSecondaryIndexes()
                        .get(0)
                        .provisionedThroughput()
                        .readCapacityUnits())
                .isEqualTo(6L);
        assertThat(westTable
                        .globalSecondaryIndexes()
                        .get(0)
                        .provisionedThroughput()
                        .writeCapacityUnits())
                .isEqualTo(8L);
        TableDescription eastTable =
                e.describeTable(b -> b.tableName("updated")).table();
        assertThat(eastTable.provisionedThroughput().readCapacityUnits()).isEqualTo(11L);
        assertThat(eastTable.provisionedThroughput().writeCapacityUnits()).isEqualTo(9L);
        assertThat(eastTable
                        .globalSecondaryIndexes()
                        .get(0)
                        .provisionedThroughput()
                        .readCapacityUnits())
                .as("the east's index keeps its read units")
                .isEqualTo(3L);
        assertThat(eastTable.tableClassSummary()).isNull();

        e.updateGlobalTableSettings(
                b -> b.globalTableName("updated").globalTableBillingMode(BillingMode.PAY_PER_REQUEST));
        assertThat(w.describeTable(b -> b.tableName("updated"))
                        .table()
                        .billingModeSummary()
                        .billingMode())
                .isEqualTo(BillingMode.PAY_PER_REQUEST);
        ReplicaSettingsDescription onDemand = e.describeGlobalTableSettings(b -> b.globalTableName("updated"))
                .replicaSettings()
                .get(1);
        assertThat(onDemand.replicaBillingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(onDemand.replicaBillingModeSummary().lastUpdateToPayPerRequestDateTime())
                .isNotNull();
    }

    @Test
    void badRequestsAreRefusedAndChangeNothing() {
        createProvisioned(e, "refused", 5);
        createProvisioned(w, "refused", 5);
        link("refused");
        assertError(
                () -> e.describeGlobalTableSettings(b -> b.globalTableName("nothere")),
                "GlobalTableNotFoundException",
                "Global table not found");
        assertError(
                () -> e.updateGlobalTableSettings(
                        b -> b.globalTableName("nothere").globalTableProvisionedWriteCapacityUnits(3L)),
                "GlobalTableNotFoundException",
                "Global table not found");
        assertError(
                () -> e.updateGlobalTableSettings(b -> b.globalTableName("refused")
                        .replicaSettingsUpdate(ReplicaSettingsUpdate.builder()
                                .regionName("ap-south-1")
                                .replicaProvisionedReadCapacityUnits(3L)
                                .build())),
                "ReplicaNotFoundException",
                "Replica not found: ap-south-1");
        assertError(
                () -> e.updateGlobalTableSettings(b -> b.globalTableName("refused")
                        .globalTableGlobalSecondaryIndexSettingsUpdate(
                                GlobalTableGlobalSecondaryIndexSettingsUpdate.builder()
                                        .indexName("noSuchIndex")
                                        .provisionedWriteCapacityUnits(3L)
                                        .build())),
                "IndexNotFoundException",
                "Requested resource not found: Index: noSuchIndex not found in table refused");
        assertValidation(
                () -> e.updateGlobalTableSettings(b -> b.globalTableName("refused")
                        .globalTableProvisionedWriteCapacityAutoScalingSettingsUpdate(
                                a -> a.minimumUnits(1L).maximumUnits(10L))),
                "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate: Kumiko does not support auto"
                        + " scaling; set provisioned capacity with UpdateGlobalTableSettings");
        assertValidation(
                () -> e.updateGlobalTableSettings(b -> b.globalTableName("refused")
                        .replicaSettingsUpdate(ReplicaSettingsUpdate.builder()
                                .regionName(WEST)
                                .replicaProvisionedReadCapacityAutoScalingSettingsUpdate(
                                        a -> a.autoScalingDisabled(false))
                                .build())),
                "ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate: Kumiko does not support auto"
                        + " scaling; set provisioned capacity with UpdateGlobalTableSettings");
        assertValidation(
                () -> e.updateGlobalTableSettings(
                        b -> b.globalTableName("refused").globalTableProvisionedWriteCapacityUnits(0L)),
                "1 validation error detected: Value '0' at 'globalTableProvisionedWriteCapacityUnits' failed to"
                        + " satisfy constraint: Member must have value greater than or equal to 1");
        assertValidation(
                () -> e.describeGlobalTableSettings(b -> b.globalTableName("x")),
                "1 validation error detected: Value 'x' at 'globalTableName' failed to satisfy constraint:"
                        + " Member must have length greater than or equal to 3");
        assertThat(w.describeTable(b -> b.tableName("refused"))
                        .table()
                        .provisionedThroughput()
                        .readCapacityUnits())
                .isEqualTo(5L);
    }

    private static void link(String name) {
        e.createGlobalTable(b -> b.globalTableName(name)
                .replicationGroup(
                        Replica.builder().regionName(EAST).build(),
                        Replica.builder().regionName(WEST).build()));
    }

    /** A provisioned table with read units of read, 4 write units, and an index byV of 3 and 2. */
    private static void createProvisioned(DynamoDbClient c, String name, long read) {
        c.createTable(b -> b.tableName(name)
                .attributeDefinitions(attribute("pk"), attribute("v"))
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(read).writeCapacityUnits(4L))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName("byV")
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("v")
                                .keyType(KeyType.HASH)
                                .build())
                        .projection(p -> p.projectionType(ProjectionType.ALL))
                        .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(2L))
                        .build())
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    }

    private static AttributeDefinition attribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }
}
