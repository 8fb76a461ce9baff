package dev.kumiko.server.reads;

import static dev.kumiko.server.Fixtures.def;
import static dev.kumiko.server.Fixtures.item;
import static dev.kumiko.server.Fixtures.key;
import static dev.kumiko.server.Fixtures.n;
import static dev.kumiko.server.Fixtures.s;
import static dev.kumiko.server.Fixtures.sortKeys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.server.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Seed 000 end to end: the serverless chat app's single table ("Connect40-Table-${envName}" in the
 * seed's CDK stack) with its six entity kinds, exactly the seed's PK/SK formats and GSI1, populated
 * with several users, rooms and 120 messages in one room, and each of the seed's six access
 * patterns asserted item for item. Runs on the memory store and on RocksDB; the RocksDB run
 * restarts the server halfway through loading and again in a test, so index entries written
 * before a restart must still answer afterwards.
 */
class ChatTableAccessPatternsTest {
    static final String TABLE = "Connect40-Table-dev";
    static final String GSI1 = "GSI1";
    static final int XYZ_MESSAGES = 120;
    static final int PAGE = 50;
    static final long FIRST_MESSAGE_MILLIS = 1_709_234_567_000L;
    static final Instant CONNECTED_AT = Instant.parse("2026-03-01T09:00:00Z");

    @Nested
    class OnMemory extends ChatScenario {
        @Override
        TestServer.StoreKind kind() {
            return TestServer.StoreKind.MEMORY;
        }
    }

    @Nested
    class OnRocksDb extends ChatScenario {
        @Override
        TestServer.StoreKind kind() {
            return TestServer.StoreKind.ROCKSDB;
        }

        @Override
        void restartIfDurable() {
            server.restart();
            c = server.client();
        }

        /** Everything written before this restart answers the same after it, through the index too. */
        @Test
        void everyAccessPatternAnswersTheSameAfterARestart() {
            restartIfDurable();
            connectionToUser();
            userToActiveConnections();
            broadcastToARoomsParticipants();
            roomMetadata();
            roomMessagesNewestFirstInPagesOf50();
            roomsOfAUserById();
            roomsOfAUserByJoinDateOnGsi1();
            roomsOfAUserInAJoinDateRangeOnGsi1();
            roomListInOneBatchGetItem();
            gsi1HoldsExactlyTheParticipationRecords();
        }
    }

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class ChatScenario {
        TestServer server;
        DynamoDbClient c;
        final ChatData data = new ChatData();

        abstract TestServer.StoreKind kind();

        /** RocksDB restarts here: what was written before must be read back, index entries included. */
        void restartIfDurable() {}

        @BeforeAll
        void load() {
            server = TestServer.start(kind());
            c = server.client();
            createSeedTable(c);
            List<Map<String, AttributeValue>> items = data.allItems();
            int half = items.size() / 2;
            putAll(items.subList(0, half));
            restartIfDurable();
            putAll(items.subList(half, items.size()));
        }

        @AfterAll
        void stop() {
            server.close();
        }

        private void putAll(List<Map<String, AttributeValue>> items) {
            for (int from = 0; from < items.size(); from += 25) {
                List<WriteRequest> batch = new ArrayList<>();
                for (Map<String, AttributeValue> item : items.subList(from, Math.min(from + 25, items.size()))) {
                    batch.add(WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(item).build())
                            .build());
                }
                BatchWriteItemResponse r = c.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch)));
                assertThat(r.unprocessedItems()).isEmpty();
            }
        }

        /** Access pattern 1: a WebSocket connection id to its user (GetItem). */
        @Test
        void connectionToUser() {
            Map<String, AttributeValue> got = c.getItem(
                            b -> b.tableName(TABLE).key(key("CONNECTION#abc-123", "METADATA")))
                    .item();
            assertThat(got).isEqualTo(data.connection("abc-123", "user-001", 0));
            assertThat(got.get("userId").s()).isEqualTo("user-001");
            assertThat(got.get("ttl").n()).isEqualTo(Long.toString(CONNECTED_AT.getEpochSecond() + 86_400));
            assertThat(c.getItem(b -> b.tableName(TABLE).key(key("CONNECTION#gone-000", "METADATA")))
                            .hasItem())
                    .isFalse();
        }

        /** Access pattern 2: a user's active connections (Query begins_with CONNECTION#). */
        @Test
        void userToActiveConnections() {
            QueryResponse r = queryPrefix("USER#user-001", "CONNECTION#");
            assertThat(r.items())
                    .containsExactly(
                            data.userConnection("user-001", "abc-123", 0),
                            data.userConnection("user-001", "def-456", 1));
            assertThat(r.count()).isEqualTo(2);
            assertThat(r.scannedCount()).isEqualTo(2);
            assertThat(r.lastEvaluatedKey()).isEmpty();
        }

        /** The seed's broadcast flow: each participant of room-xyz to their connections; user-003 is offline. */
        @Test
        void broadcastToARoomsParticipants() {
            Map<String, AttributeValue> room = c.getItem(
                            b -> b.tableName(TABLE).key(key("CHATROOM#room-xyz", "METADATA")))
                    .item();
            Map<String, List<String>> connections = new LinkedHashMap<>();
            for (AttributeValue participant : room.get("participantIds").l()) {
                List<String> ids = new ArrayList<>();
                queryPrefix("USER#" + participant.s(), "CONNECTION#")
                        .items()
                        .forEach(i -> ids.add(i.get("connectionId").s()));
                connections.put(participant.s(), ids);
            }
            assertThat(connections)
                    .containsExactly(
                            Map.entry("user-001", List.of("abc-123", "def-456")),
                            Map.entry("user-002", List.of("ghi-789")),
                            Map.entry("user-003", List.of()));
        }

        /** Access pattern 3: a room's metadata (GetItem). */
        @Test
        void roomMetadata() {
            Map<String, AttributeValue> got = c.getItem(
                            b -> b.tableName(TABLE).key(key("CHATROOM#room-xyz", "METADATA")))
                    .item();
            assertThat(got).isEqualTo(data.room("room-xyz"));
            assertThat(got.get("name").s()).isEqualTo("ゴルフ部 週末ラウンド");
            assertThat(got.get("type").s()).isEqualTo("group");
        }

        /**
         * Access pattern 4: a room's messages newest first, 50 at a time (Query begins_with MESSAGE#,
         * ScanIndexForward=false, Limit 50), following LastEvaluatedKey to the end. The partition
         * also holds LASTMESSAGE (sorts before MESSAGE#) and METADATA (right after the last
         * MESSAGE#), which the prefix must exclude at both ends.
         */
        @Test
        void roomMessagesNewestFirstInPagesOf50() {
            List<String> expected = data.messageSortKeys("room-xyz");
            expected.sort(Comparator.reverseOrder());
            List<String> all = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            List<Integer> pageSizes = new ArrayList<>();
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse r = c.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
                        .expressionAttributeValues(Map.of(":pk", s("CHATROOM#room-xyz"), ":prefix", s("MESSAGE#")))
                        .scanIndexForward(false)
                        .limit(PAGE)
                        .exclusiveStartKey(from));
                List<String> page = sortKeys(r.items());
                assertThat(page)
                        .as("page %d", pageSizes.size() + 1)
                        .isEqualTo(expected.subList(all.size(), all.size() + page.size()));
                assertThat(timestamps(r.items())).isSortedAccordingTo(Comparator.reverseOrder());
                assertThat(r.scannedCount()).isEqualTo(page.size());
                if (page.size() == PAGE) {
                    assertThat(r.lastEvaluatedKey())
                            .isEqualTo(Map.of("PK", s("CHATROOM#room-xyz"), "SK", s(page.get(PAGE - 1))));
                }
                assertThat(all).doesNotContainAnyElementsOf(page);
                all.addAll(page);
                pageSizes.add(page.size());
                start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
            } while (start != null);
            assertThat(pageSizes).containsExactly(50, 50, 20);
            assertThat(all).isEqualTo(expected).hasSize(XYZ_MESSAGES);
            QueryResponse newest = c.query(b -> b.tableName(TABLE)
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
                    .expressionAttributeValues(Map.of(":pk", s("CHATROOM#room-xyz"), ":prefix", s("MESSAGE#")))
                    .scanIndexForward(false)
                    .limit(1));
            assertThat(newest.items()).containsExactly(data.message("room-xyz", XYZ_MESSAGES - 1));
        }

        /** Access pattern 5 on the table: a user's rooms, in room-id order (Query begins_with CHATROOM#). */
        @Test
        void roomsOfAUserById() {
            QueryResponse r = queryPrefix("USER#user-001", "CHATROOM#");
            assertThat(r.items())
                    .containsExactly(
                            data.participation("user-001", "room-abc"),
                            data.participation("user-001", "room-def"),
                            data.participation("user-001", "room-xyz"));
            assertThat(sortKeys(queryPrefix("USER#user-004", "CHATROOM#").items()))
                    .containsExactly("CHATROOM#room-def");
        }

        /** Access pattern 5 on GSI1: a user's rooms in join-date order (USERROOMS#user / joinedAt), both ways. */
        @Test
        void roomsOfAUserByJoinDateOnGsi1() {
            QueryResponse forward = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-001"))));
            assertThat(forward.items())
                    .containsExactly(
                            data.participation("user-001", "room-def"),
                            data.participation("user-001", "room-abc"),
                            data.participation("user-001", "room-xyz"));
            QueryResponse backward = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-001")))
                    .scanIndexForward(false));
            assertThat(roomIds(backward.items())).containsExactly("room-xyz", "room-abc", "room-def");
            QueryResponse user2 = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-002"))));
            assertThat(roomIds(user2.items())).containsExactly("room-abc", "room-xyz");
        }

        /** Access pattern 5 on GSI1 with a join-date range: BETWEEN, and >= newest first. */
        @Test
        void roomsOfAUserInAJoinDateRangeOnGsi1() {
            QueryResponse february = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to")
                    .expressionAttributeValues(
                            Map.of(":pk", s("USERROOMS#user-001"), ":from", s("2026-02-01"), ":to", s("2026-02-28"))));
            assertThat(roomIds(february.items())).containsExactly("room-abc", "room-xyz");
            QueryResponse since = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk AND GSI1SK >= :from")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-001"), ":from", s("2026-01-10T09:00")))
                    .scanIndexForward(false));
            assertThat(roomIds(since.items())).containsExactly("room-xyz", "room-abc", "room-def");
            QueryResponse before = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk AND GSI1SK < :to")
                    .expressionAttributeValues(
                            Map.of(":pk", s("USERROOMS#user-001"), ":to", s("2026-02-01T10:00:00.000Z"))));
            assertThat(roomIds(before.items())).containsExactly("room-def");
        }

        /**
         * Access pattern 6 and the room list: the user's rooms (pattern 5), then every room's METADATA
         * and LASTMESSAGE in one BatchGetItem. room-def has no message yet, so no LASTMESSAGE.
         */
        @Test
        void roomListInOneBatchGetItem() {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (Map<String, AttributeValue> p :
                    queryPrefix("USER#user-001", "CHATROOM#").items()) {
                String roomPk = "CHATROOM#" + p.get("chatRoomId").s();
                keys.add(key(roomPk, "METADATA"));
                keys.add(key(roomPk, "LASTMESSAGE"));
            }
            assertThat(keys).hasSize(6);
            BatchGetItemResponse r = c.batchGetItem(b -> b.requestItems(
                    Map.of(TABLE, KeysAndAttributes.builder().keys(keys).build())));
            assertThat(r.unprocessedKeys()).isEmpty();
            assertThat(r.responses().get(TABLE))
                    .containsExactlyInAnyOrder(
                            data.room("room-abc"),
                            data.room("room-def"),
                            data.room("room-xyz"),
                            data.lastMessage("room-abc"),
                            data.lastMessage("room-xyz"));
            Map<String, AttributeValue> last = c.getItem(
                            b -> b.tableName(TABLE).key(key("CHATROOM#room-xyz", "LASTMESSAGE")))
                    .item();
            String newestContent =
                    data.message("room-xyz", XYZ_MESSAGES - 1).get("content").s();
            assertThat(newestContent.length()).isGreaterThan(100);
            assertThat(last.get("lastMessage").s()).isEqualTo(newestContent.substring(0, 100));
        }

        /** GSI1 is sparse: only the participation records carry GSI1PK/GSI1SK, so only they are in it. */
        @Test
        void gsi1HoldsExactlyTheParticipationRecords() {
            List<Map<String, AttributeValue>> scanned = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse r =
                        c.scan(b -> b.tableName(TABLE).indexName(GSI1).limit(3).exclusiveStartKey(from));
                scanned.addAll(r.items());
                start = r.lastEvaluatedKey().isEmpty() ? null : r.lastEvaluatedKey();
            } while (start != null);
            assertThat(scanned).containsExactlyInAnyOrderElementsOf(data.participations());
            TableDescription t = c.describeTable(b -> b.tableName(TABLE)).table();
            assertThat(t.itemCount()).isEqualTo(data.allItems().size());
            GlobalSecondaryIndexDescription gsi = t.globalSecondaryIndexes().get(0);
            assertThat(gsi.indexName()).isEqualTo(GSI1);
            assertThat(gsi.itemCount()).isEqualTo(data.participations().size());
        }

        /**
         * Leaving a room deletes the participation record, and its GSI1 entry with it (also across a
         * restart); rejoining later puts it back under the new join date. Restores the seed data.
         */
        @Test
        void leavingAndRejoiningARoomFollowsInGsi1() {
            Map<String, AttributeValue> original = data.participation("user-004", "room-def");
            c.deleteItem(b -> b.tableName(TABLE).key(key("USER#user-004", "CHATROOM#room-def")));
            restartIfDurable();
            QueryResponse gone = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-004"))));
            assertThat(gone.items()).isEmpty();
            assertThat(c.describeTable(b -> b.tableName(TABLE))
                            .table()
                            .globalSecondaryIndexes()
                            .get(0)
                            .itemCount())
                    .isEqualTo(data.participations().size() - 1);
            Map<String, AttributeValue> rejoined = new HashMap<>(original);
            rejoined.put("GSI1SK", s("2026-03-02T07:00:00.000Z"));
            rejoined.put("joinedAt", s("2026-03-02T07:00:00.000Z"));
            c.putItem(b -> b.tableName(TABLE).item(rejoined));
            QueryResponse back = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk AND GSI1SK > :after")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-004"), ":after", s("2026-03"))));
            assertThat(back.items()).containsExactly(rejoined);
            c.putItem(b -> b.tableName(TABLE).item(original));
            QueryResponse restored = c.query(b -> b.tableName(TABLE)
                    .indexName(GSI1)
                    .keyConditionExpression("GSI1PK = :pk")
                    .expressionAttributeValues(Map.of(":pk", s("USERROOMS#user-004"))));
            assertThat(restored.items()).containsExactly(original);
        }

        private QueryResponse queryPrefix(String pk, String skPrefix) {
            return c.query(b -> b.tableName(TABLE)
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
                    .expressionAttributeValues(Map.of(":pk", s(pk), ":prefix", s(skPrefix))));
        }
    }

    static void createSeedTable(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .attributeDefinitions(def("PK"), def("SK"), def("GSI1PK"), def("GSI1SK"))
                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName(GSI1)
                        .keySchema(key("GSI1PK", KeyType.HASH), key("GSI1SK", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)))
                .billingMode(BillingMode.PAY_PER_REQUEST));
    }

    static AttributeValue list(String... values) {
        List<AttributeValue> out = new ArrayList<>();
        for (String v : values) {
            out.add(s(v));
        }
        return AttributeValue.builder().l(out).build();
    }

    static List<Long> timestamps(List<Map<String, AttributeValue>> items) {
        List<Long> out = new ArrayList<>();
        items.forEach(i -> out.add(Long.parseLong(i.get("timestamp").n())));
        return out;
    }

    static List<String> roomIds(List<Map<String, AttributeValue>> items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("chatRoomId").s()));
        return out;
    }

    /** The seed's items, built deterministically with the seed's attribute names and key formats. */
    static final class ChatData {
        /** Room id to participants, and to the join time of each (ISO-8601, the GSI1 sort key). */
        private final Map<String, List<String>> participants = new LinkedHashMap<>();

        private final Map<String, String> joinedAt = new HashMap<>();

        ChatData() {
            participants.put("room-abc", List.of("user-001", "user-002"));
            participants.put("room-def", List.of("user-001", "user-003", "user-004"));
            participants.put("room-xyz", List.of("user-001", "user-002", "user-003"));
            // user-001's rooms sort abc < def < xyz by id but def < abc < xyz by join date.
            joinedAt.put("user-001/room-abc", "2026-02-01T10:00:00.000Z");
            joinedAt.put("user-001/room-def", "2026-01-10T09:30:00.000Z");
            joinedAt.put("user-001/room-xyz", "2026-02-15T21:05:00.000Z");
            joinedAt.put("user-002/room-abc", "2026-02-01T10:00:00.000Z");
            joinedAt.put("user-002/room-xyz", "2026-02-16T08:00:00.000Z");
            joinedAt.put("user-003/room-def", "2026-01-10T09:30:00.000Z");
            joinedAt.put("user-003/room-xyz", "2026-02-15T21:05:00.000Z");
            joinedAt.put("user-004/room-def", "2026-01-11T12:00:00.000Z");
        }

        List<Map<String, AttributeValue>> allItems() {
            List<Map<String, AttributeValue>> out = new ArrayList<>();
            for (String user : List.of("user-001", "user-002", "user-003", "user-004")) {
                out.add(profile(user));
            }
            out.add(connection("abc-123", "user-001", 0));
            out.add(userConnection("user-001", "abc-123", 0));
            out.add(connection("def-456", "user-001", 1));
            out.add(userConnection("user-001", "def-456", 1));
            out.add(connection("ghi-789", "user-002", 2));
            out.add(userConnection("user-002", "ghi-789", 2));
            for (String room : participants.keySet()) {
                out.add(room(room));
            }
            out.addAll(participations());
            for (int i = 0; i < 3; i++) {
                out.add(message("room-abc", i));
            }
            for (int i = 0; i < XYZ_MESSAGES; i++) {
                out.add(message("room-xyz", i));
            }
            out.add(lastMessage("room-abc"));
            out.add(lastMessage("room-xyz"));
            return out;
        }

        Map<String, AttributeValue> profile(String user) {
            return Map.of(
                    "PK",
                    s("USER#" + user),
                    "SK",
                    s("PROFILE"),
                    "Type",
                    s("User"),
                    "nickname",
                    s("nick-" + user),
                    "email",
                    s(user + "@example.com"));
        }

        /** ① CONNECTION#{connectionId} / METADATA, with the seed's 24 h ttl. */
        Map<String, AttributeValue> connection(String connectionId, String user, int minute) {
            Instant at = CONNECTED_AT.plusSeconds(60L * minute);
            return Map.of(
                    "PK",
                    s("CONNECTION#" + connectionId),
                    "SK",
                    s("METADATA"),
                    "Type",
                    s("Connection"),
                    "connectionId",
                    s(connectionId),
                    "userId",
                    s(user),
                    "connectedAt",
                    s(at.toString()),
                    "ttl",
                    n(CONNECTED_AT.getEpochSecond() + 86_400 + 60L * minute));
        }

        /** ② USER#{userId} / CONNECTION#{connectionId}: the reverse lookup, same ttl. */
        Map<String, AttributeValue> userConnection(String user, String connectionId, int minute) {
            Instant at = CONNECTED_AT.plusSeconds(60L * minute);
            return Map.of(
                    "PK",
                    s("USER#" + user),
                    "SK",
                    s("CONNECTION#" + connectionId),
                    "Type",
                    s("UserConnection"),
                    "connectionId",
                    s(connectionId),
                    "connectedAt",
                    s(at.toString()),
                    "ttl",
                    n(CONNECTED_AT.getEpochSecond() + 86_400 + 60L * minute));
        }

        /** ③ USER#{userId} / CHATROOM#{chatRoomId} with GSI1PK USERROOMS#{userId} and GSI1SK the join time. */
        Map<String, AttributeValue> participation(String user, String room) {
            String at = joinedAt.get(user + "/" + room);
            assert at != null : user + "/" + room;
            return Map.of(
                    "PK",
                    s("USER#" + user),
                    "SK",
                    s("CHATROOM#" + room),
                    "GSI1PK",
                    s("USERROOMS#" + user),
                    "GSI1SK",
                    s(at),
                    "Type",
                    s("ChatParticipation"),
                    "chatRoomId",
                    s(room),
                    "participantId",
                    s(user),
                    "joinedAt",
                    s(at));
        }

        List<Map<String, AttributeValue>> participations() {
            List<Map<String, AttributeValue>> out = new ArrayList<>();
            participants.forEach((room, users) -> users.forEach(u -> out.add(participation(u, room))));
            return out;
        }

        /** ④ CHATROOM#{chatRoomId} / METADATA. */
        Map<String, AttributeValue> room(String room) {
            List<String> users = participants.get(room);
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("PK", s("CHATROOM#" + room));
            item.put("SK", s("METADATA"));
            item.put("Type", s("ChatRoom"));
            item.put("chatRoomId", s(room));
            item.put("name", s(room.equals("room-xyz") ? "ゴルフ部 週末ラウンド" : "room " + room));
            item.put("participantIds", list(users.toArray(new String[0])));
            item.put("type", s(users.size() == 2 ? "direct" : "group"));
            item.put("createdAt", s("2026-01-10T09:30:00.000Z"));
            if (room.equals("room-xyz")) {
                item.put("activityId", s("act-xyz"));
            }
            return item;
        }

        private int messageCount(String room) {
            return switch (room) {
                case "room-abc" -> 3;
                case "room-xyz" -> XYZ_MESSAGES;
                default -> 0;
            };
        }

        /** The i-th message's epoch millis: 30 s apart, but messages 40 and 41 share one millisecond. */
        private static long millis(int i) {
            int slot = i == 41 ? 40 : i;
            return FIRST_MESSAGE_MILLIS + 30_000L * slot;
        }

        private static String messageId(String room, int i) {
            return UUID.nameUUIDFromBytes((room + "/" + i).getBytes(StandardCharsets.UTF_8))
                    .toString();
        }

        /** ⑤ CHATROOM#{chatRoomId} / MESSAGE#{timestamp}#{messageId}. */
        Map<String, AttributeValue> message(String room, int i) {
            assert i < messageCount(room);
            long ts = millis(i);
            String id = messageId(room, i);
            String sender =
                    participants.get(room).get(i % participants.get(room).size());
            String content = i == messageCount(room) - 1
                    ? "おはようございます！今週末のラウンドは7時にクラブハウス集合です。".repeat(4) + " #" + i
                    : "おはようございます！ #" + i;
            return item(
                    "PK",
                    s("CHATROOM#" + room),
                    "SK",
                    s("MESSAGE#" + ts + "#" + id),
                    "Type",
                    s("Message"),
                    "messageId",
                    s(id),
                    "chatRoomId",
                    s(room),
                    "senderId",
                    s(sender),
                    "content",
                    s(content),
                    "messageType",
                    s("user"),
                    "readBy",
                    list(sender),
                    "createdAt",
                    s(Instant.ofEpochMilli(ts).toString()),
                    "timestamp",
                    n(ts));
        }

        List<String> messageSortKeys(String room) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < messageCount(room); i++) {
                out.add(message(room, i).get("SK").s());
            }
            return out;
        }

        /** ⑥ CHATROOM#{chatRoomId} / LASTMESSAGE: the newest message's first 100 characters. */
        Map<String, AttributeValue> lastMessage(String room) {
            Map<String, AttributeValue> newest = message(room, messageCount(room) - 1);
            String content = newest.get("content").s();
            return Map.of(
                    "PK",
                    s("CHATROOM#" + room),
                    "SK",
                    s("LASTMESSAGE"),
                    "lastMessageAt",
                    newest.get("createdAt"),
                    "lastMessage",
                    s(content.substring(0, Math.min(100, content.length()))));
        }
    }
}
