package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Parses a request body for its operation. The hot data-plane operations have their attribute maps
 * (Item, Key, ExpressionAttributeValues, ExclusiveStartKey, the items and keys inside the batches
 * and transactions) decoded straight from the parser into {@link DecodedAttributes}, which is most
 * of a request's garbage when it goes through the generic tree; every other member, and every
 * other operation, gets the plain tree of {@link JsonTree}. The readers accept both forms, so
 * in-process callers may still pass trees.
 */
public final class RequestBodies {
    /**
     * Capacity of the objects around attribute maps: most hold one member ({"PutRequest": {"Item":
     * ...}}), so the map's default table of 16 would be mostly empty, 25 times per batch.
     */
    private static final int WRAPPER_MEMBERS_EXPECTED = 2;

    private static final Shape ATTRIBUTES = Shape.attributes();
    private static final Shape TRANSACT_ACTION =
            Shape.object(Map.of("Item", ATTRIBUTES, "Key", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES));

    /** Where each operation's attribute maps are; operations not listed are parsed as plain trees. */
    private static final Map<String, Shape> SHAPES = Map.of(
            "PutItem", Shape.object(Map.of("Item", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES)),
            "GetItem", Shape.object(Map.of("Key", ATTRIBUTES)),
            "UpdateItem", Shape.object(Map.of("Key", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES)),
            "DeleteItem", Shape.object(Map.of("Key", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES)),
            "Query", Shape.object(Map.of("ExclusiveStartKey", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES)),
            "Scan", Shape.object(Map.of("ExclusiveStartKey", ATTRIBUTES, "ExpressionAttributeValues", ATTRIBUTES)),
            "BatchWriteItem",
                    Shape.object(Map.of(
                            "RequestItems",
                            Shape.ofAnyMember(Shape.list(Shape.object(Map.of(
                                    "PutRequest", Shape.object(Map.of("Item", ATTRIBUTES)),
                                    "DeleteRequest", Shape.object(Map.of("Key", ATTRIBUTES)))))))),
            "BatchGetItem",
                    Shape.object(Map.of(
                            "RequestItems", Shape.ofAnyMember(Shape.object(Map.of("Keys", Shape.list(ATTRIBUTES)))))),
            "TransactWriteItems",
                    Shape.object(Map.of(
                            "TransactItems",
                            Shape.list(Shape.object(Map.of(
                                    "Put",
                                    TRANSACT_ACTION,
                                    "Update",
                                    TRANSACT_ACTION,
                                    "Delete",
                                    TRANSACT_ACTION,
                                    "ConditionCheck",
                                    TRANSACT_ACTION))))),
            "TransactGetItems",
                    Shape.object(Map.of(
                            "TransactItems",
                            Shape.list(Shape.object(Map.of("Get", Shape.object(Map.of("Key", ATTRIBUTES))))))));

    private RequestBodies() {}

    /** The request object of {@code operation}; malformed JSON is a SerializationException, as in {@link JsonTree}. */
    public static Map<String, Object> parse(String operation, byte[] body, int offset, int length) {
        Shape shape = operation == null ? null : SHAPES.get(operation);
        if (shape == null) {
            return JsonTree.parseObject(body, offset, length);
        }
        return JsonTree.parseObject(body, offset, length, (p, name, first) -> read(p, first, shape.member(name)));
    }

    /** The value whose first token is {@code first}, decoded as {@code shape} says where its JSON type fits. */
    private static Object read(JsonParser p, JsonToken first, @Nullable Shape shape) throws IOException {
        if (shape == null) {
            return JsonTree.readValue(p, first);
        }
        if (first == JsonToken.START_OBJECT && shape.attributeMap()) {
            return AttributeStream.readMap(p);
        }
        if (first == JsonToken.START_OBJECT && shape.hasMembers()) {
            Map<String, Object> map = new LinkedHashMap<>(WRAPPER_MEMBERS_EXPECTED);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                map.put(name, read(p, p.nextToken(), shape.member(name)));
            }
            return map;
        }
        if (first == JsonToken.START_ARRAY && shape.elements() != null) {
            List<Object> list = new ArrayList<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                list.add(read(p, t, shape.elements()));
            }
            return list;
        }
        // Any other JSON type is left to the reader, which reports it as it does for a tree.
        return JsonTree.readValue(p, first);
    }

    /**
     * Where attribute maps sit in a request body: an attribute map itself, an object whose members
     * (named, or any member) have shapes, or a list whose elements have one.
     */
    private record Shape(
            boolean attributeMap,
            Map<String, Shape> members,
            @Nullable Shape anyMember,
            @Nullable Shape elements) {
        static Shape attributes() {
            return new Shape(true, Map.of(), null, null);
        }

        static Shape object(Map<String, Shape> members) {
            return new Shape(false, members, null, null);
        }

        static Shape ofAnyMember(Shape shape) {
            return new Shape(false, Map.of(), shape, null);
        }

        static Shape list(Shape elements) {
            return new Shape(false, Map.of(), null, elements);
        }

        boolean hasMembers() {
            return anyMember != null || !members.isEmpty();
        }

        @Nullable
        Shape member(String name) {
            return anyMember != null ? anyMember : members.get(name);
        }
    }
}
