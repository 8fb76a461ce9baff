package dev.kumiko.server.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * Seed 000's chat table, small: its PK/SK formats (CONNECTION#, USER#…/CONNECTION#,
 * USER#…/CHATROOM# with GSI1 USERROOMS#, CHATROOM#…/METADATA, MESSAGE#timestamp#id,
 * LASTMESSAGE), TTL on connections and a stream, as the console's tests and screenshots show it.
 */
final class ChatSeed {
    static final String TABLE = "Connect40-Table-dev";
    static final String GSI1 = "GSI1";
    static final String ROOM = "room-xyz";
    static final int MESSAGES = 24;
    static final long FIRST_MESSAGE_MILLIS = 1_709_234_567_000L;
    static final String[] USERS = {"user-001", "user-002", "user-003"};
    static final String[] ROOMS = {"room-abc", ROOM};

    private ChatSeed() {}

    static void create(DynamoDbClient c) {
        c.createTable(b -> b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attr("PK"), attr("SK"), attr("GSI1PK"), attr("GSI1SK"))
                .keySchema(key("PK", KeyType.HASH), key("SK", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(GSI1)
                        .keySchema(key("GSI1PK", KeyType.HASH), key("GSI1SK", KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.ALL)
                                .build())
                        .build())
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build()));
        c.updateTimeToLive(b ->
                b.tableName(TABLE).timeToLiveSpecification(t -> t.enabled(true).attributeName("ttl")));
    }

    static void load(DynamoDbClient c) {
        long day = 24 * 3600;
        long now = System.currentTimeMillis() / 1000;
        for (int u = 0; u < USERS.length; u++) {
            String conn = "conn-" + (char) ('a' + u);
            put(
                    c,
                    Map.of(
                            "PK",
                            s("CONNECTION#" + conn),
                            "SK",
                            s("METADATA"),
                            "userId",
                            s(USERS[u]),
                            "ttl",
                            n(now + day)));
            put(c, Map.of("PK", s("USER#" + USERS[u]), "SK", s("CONNECTION#" + conn), "ttl", n(now + day)));
        }
        for (int r = 0; r < ROOMS.length; r++) {
            put(
                    c,
                    Map.of(
                            "PK",
                            s("CHATROOM#" + ROOMS[r]),
                            "SK",
                            s("METADATA"),
                            "name",
                            s("Room " + ROOMS[r]),
                            "createdBy",
                            s(USERS[0])));
            for (int u = 0; u <= r + 1; u++) {
                put(
                        c,
                        Map.of(
                                "PK",
                                s("USER#" + USERS[u]),
                                "SK",
                                s("CHATROOM#" + ROOMS[r]),
                                "GSI1PK",
                                s("USERROOMS#" + USERS[u]),
                                "GSI1SK",
                                s("2026-03-0" + (r + 1) + "T09:00:00Z")));
            }
        }
        for (String m : messageSortKeys()) {
            String sender = USERS[Integer.parseInt(m.substring(m.length() - 3)) % USERS.length];
            put(
                    c,
                    Map.of(
                            "PK",
                            s("CHATROOM#" + ROOM),
                            "SK",
                            s(m),
                            "senderId",
                            s(sender),
                            "body",
                            s("hello " + m.substring(m.lastIndexOf('#') + 1))));
        }
        List<String> sks = messageSortKeys();
        put(c, Map.of("PK", s("CHATROOM#" + ROOM), "SK", s("LASTMESSAGE"), "messageSk", s(sks.get(sks.size() - 1))));
    }

    /** The room's message sort keys, oldest first: MESSAGE#<epoch millis>#<id>. */
    static List<String> messageSortKeys() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            out.add("MESSAGE#" + (FIRST_MESSAGE_MILLIS + i * 61_000L) + "#msg-" + String.format("%03d", i));
        }
        return out;
    }

    private static void put(DynamoDbClient c, Map<String, AttributeValue> item) {
        c.putItem(b -> b.tableName(TABLE).item(item));
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    private static AttributeDefinition attr(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
