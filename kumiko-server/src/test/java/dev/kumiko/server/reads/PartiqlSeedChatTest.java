package dev.kumiko.server.reads;

import static dev.kumiko.server.Fixtures.s;
import static dev.kumiko.server.Fixtures.sortKeys;
import static dev.kumiko.server.reads.ChatTableAccessPatternsTest.TABLE;
import static dev.kumiko.server.reads.ChatTableAccessPatternsTest.XYZ_MESSAGES;
import static dev.kumiko.server.reads.ChatTableAccessPatternsTest.roomIds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;

/**
 * Seed 000's chat table with every access pattern written as PartiQL: loaded with
 * BatchExecuteStatement INSERTs, read with SELECTs on the table and on "table"."GSI1", the
 * message history paged newest first with ORDER BY, Limit and NextToken, and the room list read
 * with one BatchExecuteStatement. Expected items come from the same data as ChatTableAccessPatternsTest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartiqlSeedChatTest {
    static final String FROM = "\"" + TABLE + "\"";
    TestServer server;
    DynamoDbClient c;
    final ChatTableAccessPatternsTest.ChatData data = new ChatTableAccessPatternsTest.ChatData();

    @BeforeAll
    void load() {
        server = TestServer.start(TestServer.StoreKind.MEMORY);
        c = server.client();
        ChatTableAccessPatternsTest.createSeedTable(c);
        List<Map<String, AttributeValue>> items = data.allItems();
        for (int from = 0; from < items.size(); from += 25) {
            List<BatchStatementRequest> batch = new ArrayList<>();
            for (Map<String, AttributeValue> item : items.subList(from, Math.min(from + 25, items.size()))) {
                batch.add(BatchStatementRequest.builder()
                        .statement("INSERT INTO " + FROM + " VALUE ?")
                        .parameters(AttributeValue.fromM(item))
                        .build());
            }
            BatchExecuteStatementResponse r = c.batchExecuteStatement(b -> b.statements(batch));
            assertThat(r.responses()).allSatisfy(e -> assertThat(e.error()).isNull());
        }
    }

    @AfterAll
    void stop() {
        server.close();
    }

    List<Map<String, AttributeValue>> select(String statement, AttributeValue... parameters) {
        return c.executeStatement(
                        b -> b.statement(statement).parameters(parameters.length == 0 ? null : List.of(parameters)))
                .items();
    }

    @Test
    void connectionToUser() {
        assertThat(select("SELECT * FROM " + FROM + " WHERE PK = ? AND SK = 'METADATA'", s("CONNECTION#abc-123")))
                .containsExactly(data.connection("abc-123", "user-001", 0));
        assertThat(select("SELECT userId FROM " + FROM + " WHERE PK = 'CONNECTION#gone-000' AND SK = 'METADATA'"))
                .isEmpty();
    }

    @Test
    void userToActiveConnections() {
        assertThat(select(
                        "SELECT * FROM " + FROM + " WHERE PK = ? AND begins_with(SK, 'CONNECTION#')",
                        s("USER#user-001")))
                .containsExactly(
                        data.userConnection("user-001", "abc-123", 0), data.userConnection("user-001", "def-456", 1));
    }

    @Test
    void roomMetadata() {
        assertThat(select("SELECT * FROM " + FROM + " WHERE PK = 'CHATROOM#room-xyz' AND SK = 'METADATA'"))
                .containsExactly(data.room("room-xyz"));
    }

    @Test
    void roomMessagesNewestFirstInPagesOf50() {
        List<String> expected = data.messageSortKeys("room-xyz");
        expected.sort(Comparator.reverseOrder());
        List<String> all = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        String token = null;
        do {
            String from = token;
            ExecuteStatementResponse r = c.executeStatement(b -> b.statement(
                            "SELECT * FROM " + FROM + " WHERE PK = ? AND begins_with(SK, 'MESSAGE#') ORDER BY SK DESC")
                    .parameters(s("CHATROOM#room-xyz"))
                    .limit(50)
                    .nextToken(from));
            all.addAll(sortKeys(r.items()));
            pageSizes.add(r.items().size());
            token = r.nextToken();
        } while (token != null && pageSizes.size() < 10);
        assertThat(all).isEqualTo(expected);
        assertThat(all).hasSize(XYZ_MESSAGES);
        assertThat(pageSizes).startsWith(50, 50, 20);
    }

    @Test
    void roomsOfAUserById() {
        assertThat(select("SELECT * FROM " + FROM + " WHERE PK = 'USER#user-001' AND begins_with(SK, 'CHATROOM#')"))
                .containsExactly(
                        data.participation("user-001", "room-abc"),
                        data.participation("user-001", "room-def"),
                        data.participation("user-001", "room-xyz"));
    }

    @Test
    void roomsOfAUserByJoinDateOnGsi1() {
        String gsi = FROM + ".\"GSI1\"";
        assertThat(roomIds(select("SELECT * FROM " + gsi + " WHERE GSI1PK = 'USERROOMS#user-001'")))
                .containsExactly("room-def", "room-abc", "room-xyz");
        assertThat(roomIds(
                        select("SELECT * FROM " + gsi + " WHERE GSI1PK = 'USERROOMS#user-001' ORDER BY GSI1SK DESC")))
                .containsExactly("room-xyz", "room-abc", "room-def");
        assertThat(roomIds(select(
                        "SELECT * FROM " + gsi + " WHERE GSI1PK = ? AND GSI1SK BETWEEN ? AND ?",
                        s("USERROOMS#user-001"),
                        s("2026-02-01"),
                        s("2026-02-28"))))
                .containsExactly("room-abc", "room-xyz");
        assertThat(roomIds(select("SELECT * FROM " + gsi + " WHERE GSI1PK = 'USERROOMS#user-001' AND GSI1SK < "
                        + "'2026-02-01T10:00:00.000Z'")))
                .containsExactly("room-def");
    }

    @Test
    void roomListInOneBatchExecuteStatement() {
        List<BatchStatementRequest> reads = new ArrayList<>();
        for (Map<String, AttributeValue> p : select(
                "SELECT chatRoomId FROM " + FROM + " WHERE PK = 'USER#user-001' AND begins_with(SK, 'CHATROOM#')")) {
            for (String sk : List.of("METADATA", "LASTMESSAGE")) {
                reads.add(BatchStatementRequest.builder()
                        .statement("SELECT * FROM " + FROM + " WHERE PK = ? AND SK = ?")
                        .parameters(s("CHATROOM#" + p.get("chatRoomId").s()), s(sk))
                        .build());
            }
        }
        assertThat(reads).hasSize(6);
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (BatchStatementResponse r :
                c.batchExecuteStatement(b -> b.statements(reads)).responses()) {
            assertThat(r.error()).isNull();
            if (r.hasItem()) {
                found.add(r.item());
            }
        }
        assertThat(found)
                .containsExactly(
                        data.room("room-abc"),
                        data.lastMessage("room-abc"),
                        data.room("room-def"),
                        data.room("room-xyz"),
                        data.lastMessage("room-xyz"));
    }

    @Test
    void leavingAndRejoiningARoomFollowsInGsi1() {
        Map<String, AttributeValue> participation = data.participation("user-004", "room-def");
        c.executeStatement(b -> b.statement("DELETE FROM " + FROM + " WHERE PK = ? AND SK = ?")
                .parameters(participation.get("PK"), participation.get("SK")));
        assertThat(select("SELECT * FROM " + FROM + ".\"GSI1\" WHERE GSI1PK = 'USERROOMS#user-004'"))
                .isEmpty();
        c.executeStatement(
                b -> b.statement("INSERT INTO " + FROM + " VALUE ?").parameters(AttributeValue.fromM(participation)));
        assertThat(select("SELECT * FROM " + FROM + ".\"GSI1\" WHERE GSI1PK = 'USERROOMS#user-004'"))
                .containsExactly(participation);
    }
}
