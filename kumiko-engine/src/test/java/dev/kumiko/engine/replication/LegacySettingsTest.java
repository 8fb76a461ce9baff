package dev.kumiko.engine.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.TableClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What UpdateGlobalTableSettings checks before any region changes (the errors the two-region test
 * cannot make happen on demand, such as a replica still CREATING), and the UpdateTable it makes of
 * one region's change.
 */
class LegacySettingsTest {
    private static final String EAST = "us-east-1";
    private static final String WEST = "eu-west-1";

    private Engine engine;
    private TableDescriptor table;

    @BeforeEach
    void setUp() {
        engine = Engine.inMemory();
        engine.control()
                .createTable(
                        new RequestContext(EAST),
                        new CreateTableRequest(
                                "orders",
                                List.of(new CreateTableRequest.AttributeDefinitionInput("pk", ScalarAttributeType.S)),
                                List.of(new CreateTableRequest.KeySchemaInput("pk", KeyType.HASH)),
                                null,
                                null,
                                BillingMode.PROVISIONED,
                                new CreateTableRequest.ThroughputInput(5L, 4L),
                                null,
                                null,
                                null,
                                null,
                                null));
        table = engine.control()
                .describeTable(new RequestContext(EAST), "orders")
                .descriptor();
    }

    @AfterEach
    void tearDown() {
        engine.close();
    }

    @Test
    void aReplicaBeingAddedMakesTheGlobalTableBusy() {
        ReplicaSet adding = set(
                new ReplicaSet.Replica(EAST, ReplicaStatus.ACTIVE),
                new ReplicaSet.Replica(WEST, ReplicaStatus.CREATING));
        assertThatThrownBy(() -> LegacySettings.check(adding, update(List.of()), table))
                .isInstanceOfSatisfying(DynamoException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_IN_USE);
                    assertThat(e.getMessage())
                            .isEqualTo("Global table orders is being updated: replica eu-west-1 is CREATING");
                });
    }

    @Test
    void anUnknownRegionIsCheckedBeforeAnUnknownIndexAndBothBeforeTheStatuses() {
        ReplicaSet adding = set(
                new ReplicaSet.Replica(EAST, ReplicaStatus.ACTIVE),
                new ReplicaSet.Replica(WEST, ReplicaStatus.CREATING));
        GlobalSettingsUpdate both = new GlobalSettingsUpdate(
                null,
                null,
                Map.of("byV", 3L),
                List.of(new GlobalSettingsUpdate.Replica("ap-south-1", 3L, Map.of(), null)));
        assertThatThrownBy(() -> LegacySettings.check(adding, both, table))
                .isInstanceOfSatisfying(
                        DynamoException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REPLICA_NOT_FOUND));
        GlobalSettingsUpdate index = new GlobalSettingsUpdate(null, null, Map.of("byV", 3L), List.of());
        assertThatThrownBy(() -> LegacySettings.check(adding, index, table))
                .isInstanceOfSatisfying(
                        DynamoException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INDEX_NOT_FOUND));
    }

    @Test
    void aRegionsChangeBecomesAnUpdateTableOfWhatDiffers() {
        assertThat(LegacySettings.request(table, change(null, 4L, null, null)))
                .as("the write units the table has: nothing to change")
                .isNull();
        UpdateTableRequest units = LegacySettings.request(table, change(null, 9L, null, null));
        assertThat(units).isNotNull();
        assertThat(units.provisionedThroughput()).isEqualTo(new CreateTableRequest.ThroughputInput(5L, 9L));
        assertThat(units.billingMode()).isNull();
        UpdateTableRequest onDemand =
                LegacySettings.request(table, change(BillingMode.PAY_PER_REQUEST, null, null, null));
        assertThat(onDemand).isNotNull();
        assertThat(onDemand.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(onDemand.provisionedThroughput()).isNull();
        assertThat(LegacySettings.request(table, change(null, null, null, TableClass.STANDARD)))
                .as("the class the table has")
                .isNull();
        UpdateTableRequest tableClass =
                LegacySettings.request(table, change(null, null, 7L, TableClass.STANDARD_INFREQUENT_ACCESS));
        assertThat(tableClass).isNotNull();
        assertThat(tableClass.tableClass()).isEqualTo(TableClass.STANDARD_INFREQUENT_ACCESS);
        assertThat(tableClass.provisionedThroughput()).isEqualTo(new CreateTableRequest.ThroughputInput(7L, 4L));
    }

    private static ReplicaSet set(ReplicaSet.Replica... replicas) {
        return new ReplicaSet("orders", List.of(replicas), ReplicaSet.LEGACY, 1);
    }

    private static GlobalSettingsUpdate update(List<GlobalSettingsUpdate.Replica> replicas) {
        return new GlobalSettingsUpdate(null, null, Map.of(), replicas);
    }

    private static SettingsChange change(BillingMode billing, Long write, Long read, TableClass tableClass) {
        return new SettingsChange(billing, write, read, Map.of(), Map.of(), tableClass);
    }
}
