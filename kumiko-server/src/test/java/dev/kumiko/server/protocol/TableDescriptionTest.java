package dev.kumiko.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/** DescribeTable's full TableDescription for a provisioned table with an LSI, a GSI, a stream and tags. */
class TableDescriptionTest {

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void describesEveryFieldOfARichTable(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Instant before = Instant.now().minusSeconds(1);
            TableDescription created = c.createTable(b -> b.tableName("Music")
                            .attributeDefinitions(def("Artist"), def("SongTitle"), def("AlbumTitle"), def("Genre"))
                            .keySchema(key("Artist", KeyType.HASH), key("SongTitle", KeyType.RANGE))
                            .localSecondaryIndexes(l -> l.indexName("ByAlbum")
                                    .keySchema(key("Artist", KeyType.HASH), key("AlbumTitle", KeyType.RANGE))
                                    .projection(p -> p.projectionType(ProjectionType.INCLUDE)
                                            .nonKeyAttributes("Year")))
                            .globalSecondaryIndexes(g -> g.indexName("ByGenre")
                                    .keySchema(key("Genre", KeyType.HASH))
                                    .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                                    .provisionedThroughput(
                                            t -> t.readCapacityUnits(3L).writeCapacityUnits(4L)))
                            .billingMode(BillingMode.PROVISIONED)
                            .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(6L))
                            .streamSpecification(
                                    s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
                            .tags(Tag.builder().key("team").value("music").build())
                            .deletionProtectionEnabled(false))
                    .tableDescription();
            assertThat(created.tableStatus()).isIn(TableStatus.CREATING, TableStatus.ACTIVE);

            if (kind == TestServer.StoreKind.ROCKSDB) {
                server.restart();
                c = server.client();
            }
            TableDescription t = c.describeTable(b -> b.tableName("Music")).table();
            String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Music";
            assertThat(t.tableName()).isEqualTo("Music");
            assertThat(t.tableStatus()).isEqualTo(TableStatus.ACTIVE);
            assertThat(t.tableArn()).isEqualTo(arn);
            assertThat(t.tableId())
                    .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
                    .isEqualTo(created.tableId());
            assertThat(t.creationDateTime()).isBetween(before, Instant.now().plus(Duration.ofSeconds(1)));
            assertThat(t.creationDateTime()).isEqualTo(created.creationDateTime());
            assertThat(t.keySchema()).containsExactly(key("Artist", KeyType.HASH), key("SongTitle", KeyType.RANGE));
            assertThat(t.attributeDefinitions())
                    .containsExactlyInAnyOrder(def("Artist"), def("SongTitle"), def("AlbumTitle"), def("Genre"));
            assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(5L);
            assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(6L);
            assertThat(t.provisionedThroughput().numberOfDecreasesToday()).isEqualTo(0L);
            assertThat(t.itemCount()).isEqualTo(0L);
            assertThat(t.tableSizeBytes()).isEqualTo(0L);
            // A table created PROVISIONED has no BillingModeSummary in DynamoDB's answer.
            assertThat(t.billingModeSummary() == null
                            || t.billingModeSummary().billingMode() == BillingMode.PROVISIONED)
                    .isTrue();

            assertThat(t.localSecondaryIndexes()).hasSize(1);
            var lsi = t.localSecondaryIndexes().get(0);
            assertThat(lsi.indexName()).isEqualTo("ByAlbum");
            assertThat(lsi.keySchema()).containsExactly(key("Artist", KeyType.HASH), key("AlbumTitle", KeyType.RANGE));
            assertThat(lsi.projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
            assertThat(lsi.projection().nonKeyAttributes()).containsExactly("Year");
            assertThat(lsi.indexArn()).isEqualTo(arn + "/index/ByAlbum");
            assertThat(lsi.itemCount()).isEqualTo(0L);
            assertThat(lsi.indexSizeBytes()).isEqualTo(0L);

            assertThat(t.globalSecondaryIndexes()).hasSize(1);
            var gsi = t.globalSecondaryIndexes().get(0);
            assertThat(gsi.indexName()).isEqualTo("ByGenre");
            assertThat(gsi.keySchema()).containsExactly(key("Genre", KeyType.HASH));
            assertThat(gsi.projection().projectionType()).isEqualTo(ProjectionType.KEYS_ONLY);
            assertThat(gsi.projection().hasNonKeyAttributes()).isFalse();
            assertThat(gsi.indexStatus()).isEqualTo(IndexStatus.ACTIVE);
            assertThat(gsi.provisionedThroughput().readCapacityUnits()).isEqualTo(3L);
            assertThat(gsi.provisionedThroughput().writeCapacityUnits()).isEqualTo(4L);
            assertThat(gsi.indexArn()).isEqualTo(arn + "/index/ByGenre");

            assertThat(t.streamSpecification().streamEnabled()).isTrue();
            assertThat(t.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
            assertThat(t.latestStreamLabel()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}");
            assertThat(t.latestStreamArn()).isEqualTo(arn + "/stream/" + t.latestStreamLabel());
            assertThat(t.deletionProtectionEnabled()).isFalse();

            DynamoDbClient c2 = c;
            assertThat(c2.listTagsOfResource(b -> b.resourceArn(arn)).tags())
                    .containsExactly(Tag.builder().key("team").value("music").build());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestServer.StoreKind.class, names = "IGNITE", mode = EnumSource.Mode.EXCLUDE)
    void onDemandTableHasBillingModeSummary(TestServer.StoreKind kind) {
        try (TestServer server = TestServer.start(kind)) {
            DynamoDbClient c = server.client();
            Fixtures.createTable(c, "ondemand");
            TableDescription t = c.describeTable(b -> b.tableName("ondemand")).table();
            assertThat(t.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
            assertThat(t.billingModeSummary().lastUpdateToPayPerRequestDateTime())
                    .isNotNull();
            assertThat(t.provisionedThroughput().readCapacityUnits()).isEqualTo(0L);
            assertThat(t.provisionedThroughput().writeCapacityUnits()).isEqualTo(0L);
            assertThat(t.streamSpecification()).isNull();
            assertThat(t.latestStreamArn()).isNull();
        }
    }

    static AttributeDefinition def(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
