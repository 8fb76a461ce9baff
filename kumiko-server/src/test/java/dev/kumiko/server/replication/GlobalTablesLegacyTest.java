package dev.kumiko.server.replication;

import static dev.kumiko.server.ErrorAssertions.assertError;
import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static dev.kumiko.server.replication.Regions.EAST;
import static dev.kumiko.server.replication.Regions.WEST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalTable;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableStatus;
import software.amazon.awssdk.services.dynamodb.model.Replica;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicaUpdate;

/** Global tables of the legacy version (2017.11.29) between two Kumiko servers, through the SDK. */
class GlobalTablesLegacyTest {
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
    void emptyTablesOfOneNameAreLinkedAndReplicateBothWaysUntilARegionIsRemoved() {
        Regions.createStreamedTable(e, "legacy");
        Regions.createStreamedTable(w, "legacy");
        GlobalTableDescription created = e.createGlobalTable(
                        b -> b.globalTableName("legacy").replicationGroup(region(EAST), region(WEST)))
                .globalTableDescription();
        assertThat(created.globalTableName()).isEqualTo("legacy");
        assertThat(created.globalTableStatus()).isEqualTo(GlobalTableStatus.ACTIVE);
        assertThat(created.globalTableArn()).isEqualTo("arn:aws:dynamodb::000000000000:global-table/legacy");
        assertThat(created.creationDateTime()).isNotNull();
        assertThat(created.replicationGroup())
                .extracting(ReplicaDescription::regionName)
                .containsExactly(EAST, WEST);

        Regions.put(e, "legacy", "from-east", "1");
        Regions.put(w, "legacy", "from-west", "2");
        Regions.await(
                "east's write in the west",
                () -> Regions.valueOf(w, "legacy", "from-east").equals("1"));
        Regions.await(
                "west's write in the east",
                () -> Regions.valueOf(e, "legacy", "from-west").equals("2"));

        // Both regions describe it; DescribeTable names no version (that is the current version's).
        assertThat(w.describeGlobalTable(b -> b.globalTableName("legacy"))
                        .globalTableDescription()
                        .replicationGroup())
                .extracting(ReplicaDescription::regionName)
                .containsExactly(EAST, WEST);
        assertThat(e.describeTable(b -> b.tableName("legacy")).table().globalTableVersion())
                .isNull();
        assertThat(e.listGlobalTables(b -> b.regionName(WEST)).globalTables())
                .extracting(GlobalTable::globalTableName)
                .contains("legacy");
        assertValidation(
                () -> Regions.addReplica(e, "legacy", WEST),
                "Table legacy is a global table of version 2017.11.29: add and remove its replicas with"
                        + " UpdateGlobalTable");
        assertError(
                () -> e.createGlobalTable(b -> b.globalTableName("legacy").replicationGroup(region(EAST))),
                "GlobalTableAlreadyExistsException",
                "Global table with this name already exists");

        GlobalTableDescription shrunk = e.updateGlobalTable(b -> b.globalTableName("legacy")
                        .replicaUpdates(ReplicaUpdate.builder()
                                .delete(d -> d.regionName(WEST))
                                .build()))
                .globalTableDescription();
        assertThat(shrunk.replicationGroup())
                .extracting(ReplicaDescription::regionName)
                .containsExactly(EAST);
        Regions.await(
                "the west forgetting the global table",
                () -> w.listGlobalTables().globalTables().stream()
                        .noneMatch(g -> g.globalTableName().equals("legacy")));
        assertThat(Regions.valueOf(w, "legacy", "from-east"))
                .as("the west keeps its table")
                .isEqualTo("1");
        assertError(
                () -> w.describeGlobalTable(b -> b.globalTableName("legacy")),
                "GlobalTableNotFoundException",
                "Global table not found");
    }

    @Test
    void aRegionAddedLaterGetsTheItemsAlreadyWritten() {
        Regions.createStreamedTable(e, "grown");
        Regions.createStreamedTable(w, "grown");
        e.createGlobalTable(b -> b.globalTableName("grown").replicationGroup(region(EAST)));
        for (int i = 0; i < 30; i++) {
            Regions.put(e, "grown", "k" + i, "v" + i);
        }
        e.updateGlobalTable(b -> b.globalTableName("grown")
                .replicaUpdates(
                        ReplicaUpdate.builder().create(c -> c.regionName(WEST)).build()));
        Regions.await(
                "the 30 items in the west",
                () -> w.scan(b -> b.tableName("grown")).count() == 30);
        Regions.await(
                "the global table ACTIVE again",
                () -> e.describeGlobalTable(b -> b.globalTableName("grown"))
                                .globalTableDescription()
                                .globalTableStatus()
                        == GlobalTableStatus.ACTIVE);
        Regions.put(w, "grown", "late", "w");
        Regions.await(
                "the west's write in the east",
                () -> Regions.valueOf(e, "grown", "late").equals("w"));
        assertError(
                () -> e.updateGlobalTable(b -> b.globalTableName("grown")
                        .replicaUpdates(ReplicaUpdate.builder()
                                .create(c -> c.regionName(WEST))
                                .build())),
                "ReplicaAlreadyExistsException",
                "Replica already exists: " + WEST);
    }

    @Test
    void tablesThatCannotJoinAreRefusedAndNothingIsLinked() {
        assertError(
                () -> e.createGlobalTable(b -> b.globalTableName("absent").replicationGroup(region(EAST))),
                "TableNotFoundException",
                "Table not found: absent");
        Regions.createStreamedTable(e, "full");
        Regions.createStreamedTable(w, "full");
        Regions.put(w, "full", "k", "v");
        assertValidation(
                () -> e.createGlobalTable(b -> b.globalTableName("full").replicationGroup(region(EAST), region(WEST))),
                "Region " + WEST + " refused KumikoJoinGlobalTable: {\"__type\":"
                        + "\"com.amazon.coral.validate#ValidationException\",\"message\":"
                        + "\"Table full must be empty to join a global table\"}");
        assertError(
                () -> e.describeGlobalTable(b -> b.globalTableName("full")),
                "GlobalTableNotFoundException",
                "Global table not found");
        assertValidation(
                () -> e.createGlobalTable(b -> b.replicationGroup(List.of())),
                "1 validation error detected: Value null at 'globalTableName' failed to satisfy constraint:"
                        + " Member must not be null");
        assertValidation(
                () -> e.listGlobalTables(b -> b.limit(0)),
                "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint:"
                        + " Member must have value greater than or equal to 1");
    }

    @Test
    void itemsOfALegacyTableCarryTheirWritesRegionAndTimeInEveryRegion() {
        Regions.createStreamedTable(e, "stamped");
        Regions.createStreamedTable(w, "stamped");
        e.createGlobalTable(b -> b.globalTableName("stamped").replicationGroup(region(EAST), region(WEST)));
        long beforeMillis = System.currentTimeMillis();
        Regions.put(e, "stamped", "k", "east");
        long afterMillis = System.currentTimeMillis();

        Map<String, AttributeValue> inEast = Regions.get(e, "stamped", "k");
        assertThat(inEast.get("aws:rep:updateregion").s()).isEqualTo(EAST);
        assertThat(inEast.get("aws:rep:deleting").bool()).isFalse();
        BigDecimal seconds = new BigDecimal(inEast.get("aws:rep:updatetime").n());
        assertThat(seconds.movePointRight(3).longValue()).isBetween(beforeMillis, afterMillis);
        Regions.await(
                "east's write in the west",
                () -> Regions.valueOf(w, "stamped", "k").equals("east"));
        assertThat(Regions.get(w, "stamped", "k"))
                .as("a replicated write carries its origin's attributes")
                .isEqualTo(inEast);

        Regions.put(w, "stamped", "k", "west");
        Regions.await(
                "west's later write in the east",
                () -> Regions.valueOf(e, "stamped", "k").equals("west"));
        Map<String, AttributeValue> later = Regions.get(e, "stamped", "k");
        assertThat(later.get("aws:rep:updateregion").s()).isEqualTo(WEST);
        assertThat(new BigDecimal(later.get("aws:rep:updatetime").n())).isGreaterThanOrEqualTo(seconds);
        assertThat(e.scan(b -> b.tableName("stamped")
                                .projectionExpression("#r")
                                .expressionAttributeNames(Map.of("#r", "aws:rep:updateregion")))
                        .items())
                .as("the attributes are an item's like any other: projections name them")
                .containsExactly(Map.of("aws:rep:updateregion", Regions.s(WEST)));
    }

    @Test
    void concurrentWritesConvergeOnTheLatestUpdateTime() {
        Regions.createStreamedTable(e, "raced");
        Regions.createStreamedTable(w, "raced");
        e.createGlobalTable(b -> b.globalTableName("raced").replicationGroup(region(EAST), region(WEST)));
        List<String> keys = List.of("a", "b", "c");
        Map<String, BigDecimal> newestSeen = new HashMap<>();
        for (int round = 0; round < 20; round++) {
            for (String k : keys) {
                DynamoDbClient c = (round + k.hashCode()) % 2 == 0 ? e : w;
                Regions.put(c, "raced", k, "r" + round);
                BigDecimal t = new BigDecimal(
                        Regions.get(c, "raced", k).get("aws:rep:updatetime").n());
                newestSeen.merge(k, t, BigDecimal::max);
            }
        }
        for (String k : keys) {
            Regions.await(
                    "both regions agreeing on " + k,
                    () -> Regions.get(e, "raced", k).equals(Regions.get(w, "raced", k)));
            BigDecimal won = new BigDecimal(
                    Regions.get(e, "raced", k).get("aws:rep:updatetime").n());
            assertThat(won).as("the item left in both regions of " + k).isEqualByComparingTo(newestSeen.get(k));
        }
    }

    @Test
    void theAttributesCountTowardTheItemSizeAndOnlyLegacyTablesGetThem() {
        Regions.createStreamedTable(e, "sized");
        Regions.createStreamedTable(w, "sized");
        e.createGlobalTable(b -> b.globalTableName("sized").replicationGroup(region(EAST), region(WEST)));
        Regions.createStreamedTable(e, "current");
        Regions.addReplica(e, "current", WEST);
        // 10 bytes under 400 KB: pk (2) + "big" (3) + v (1) + the value.
        String value = "x".repeat(400 * 1024 - 10 - 6);
        e.putItem(b -> b.tableName("current").item(Map.of("pk", Regions.s("big"), "v", Regions.s(value))));
        assertValidation(
                () -> e.putItem(b -> b.tableName("sized").item(Map.of("pk", Regions.s("big"), "v", Regions.s(value)))),
                "Item size has exceeded the maximum allowed size");

        Regions.put(e, "current", "k", "1");
        Regions.await(
                "the current version's write in the west",
                () -> Regions.valueOf(w, "current", "k").equals("1"));
        assertThat(Regions.get(w, "current", "k")).containsOnlyKeys("pk", "v");
        assertThat(Regions.get(e, "current", "k")).containsOnlyKeys("pk", "v");
    }

    private static Replica region(String name) {
        return Replica.builder().regionName(name).build();
    }
}
