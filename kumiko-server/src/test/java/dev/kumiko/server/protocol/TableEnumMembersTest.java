package dev.kumiko.server.protocol;

import static dev.kumiko.server.ErrorAssertions.assertValidation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.Fixtures;
import dev.kumiko.server.TestServer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableClass;

/**
 * The enum members of the table operations (CreateTable, UpdateTable, the restores): a value that
 * is not one of the set is answered with DynamoDB's constraint message, every violation in one
 * message in the model's order; a valid one reaches the table.
 */
public class TableEnumMembersTest {
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static TestServer server;
    private static DynamoDbClient c;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String name() {
        return "enum-" + SEQ.incrementAndGet();
    }

    private static void createFails(Consumer<CreateTableRequest.Builder> change, String message) {
        CreateTableRequest.Builder b = CreateTableRequest.builder()
                .tableName(name())
                .attributeDefinitions(Fixtures.def("pk"), Fixtures.def("sk"))
                .keySchema(Fixtures.key("pk", KeyType.HASH), Fixtures.key("sk", KeyType.RANGE))
                .billingMode(BillingMode.PAY_PER_REQUEST);
        change.accept(b);
        assertValidation(() -> c.createTable(b.build()), message);
    }

    @Test
    void billingModeAndTableClassInOneMessageInModelOrder() {
        createFails(
                b -> b.billingMode("ON_DEMAND").tableClass("COLD"),
                "2 validation errors detected: Value 'ON_DEMAND' at 'billingMode' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]; Value 'COLD' at "
                        + "'tableClass' failed to satisfy constraint: Member must satisfy enum value set: "
                        + "[STANDARD, STANDARD_INFREQUENT_ACCESS]");
    }

    @Test
    void streamViewType() {
        createFails(
                b -> b.streamSpecification(s -> s.streamEnabled(true).streamViewType("ALL")),
                "1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, "
                        + "NEW_AND_OLD_IMAGES, KEYS_ONLY]");
    }

    @Test
    void projectionTypeOfAnIndexAfterTheTableNameAndBeforeBillingMode() {
        createFails(
                b -> b.tableName("x")
                        .billingMode("FREE")
                        .localSecondaryIndexes(i -> i.indexName("lsi")
                                .keySchema(Fixtures.key("pk", KeyType.HASH), Fixtures.key("sk", KeyType.RANGE))
                                .projection(p -> p.projectionType("SOME"))),
                "3 validation errors detected: Value 'x' at 'tableName' failed to satisfy constraint: Member must "
                        + "have length greater than or equal to 3; Value 'SOME' at "
                        + "'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [ALL, KEYS_ONLY, INCLUDE]; Value 'FREE' at "
                        + "'billingMode' failed to satisfy constraint: Member must satisfy enum value set: "
                        + "[PROVISIONED, PAY_PER_REQUEST]");
    }

    @Test
    void sseType() {
        createFails(
                b -> b.sseSpecification(s -> s.enabled(true).sseType("RSA")),
                "1 validation error detected: Value 'RSA' at 'sSESpecification.sSEType' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [AES256, KMS]");
    }

    @Test
    void updateTableBillingMode() {
        String table = name();
        Fixtures.createTable(c, table);
        assertValidation(
                () -> c.updateTable(u -> u.tableName(table).billingMode("FREE")),
                "1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
    }

    @Test
    void validEnumsReachTheTable() {
        String table = name();
        c.createTable(b -> b.tableName(table)
                .attributeDefinitions(Fixtures.def("pk"), Fixtures.def("g"))
                .keySchema(Fixtures.key("pk", KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .tableClass(TableClass.STANDARD_INFREQUENT_ACCESS)
                .globalSecondaryIndexes(g -> g.indexName("byG")
                        .keySchema(Fixtures.key("g", KeyType.HASH))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));
        var t = c.describeTable(d -> d.tableName(table)).table();
        assertThat(t.tableClassSummary().tableClass()).isEqualTo(TableClass.STANDARD_INFREQUENT_ACCESS);
        assertThat(t.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(t.globalSecondaryIndexes().get(0).projection().projectionType())
                .isEqualTo(ProjectionType.KEYS_ONLY);
    }

    @Test
    void restoreBillingModeOverride() {
        String table = name();
        Fixtures.createTable(c, table);
        String arn = c.createBackup(b -> b.tableName(table).backupName("bk-" + table))
                .backupDetails()
                .backupArn();
        assertValidation(
                () -> c.restoreTableFromBackup(
                        r -> r.backupArn(arn).targetTableName(table + "-r").billingModeOverride("FREE")),
                "1 validation error detected: Value 'FREE' at 'billingModeOverride' failed to satisfy constraint: "
                        + "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
    }
}
