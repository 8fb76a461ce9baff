package dev.kumiko.server.protocol;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An attribute map (an item, a key, ExpressionAttributeValues) decoded while the request body was
 * parsed, standing in the body's tree where the map's JSON object was. A value DynamoDB refuses is
 * kept as its error and thrown only when the request reader reaches this member, so that errors
 * come in the order the reader checks members, as they did when the reader decoded the tree.
 *
 * @param value the decoded map, unmodifiable; null when {@code failure} is set
 * @param failure the first refused value's error, in the map's member order; null when decoded
 */
record DecodedAttributes(
        @Nullable Map<String, AttributeValue> value,
        @Nullable DynamoException failure) {
    DecodedAttributes {
        assert (value == null) != (failure == null);
    }

    Map<String, AttributeValue> get() {
        if (value != null) {
            return value;
        }
        throw Objects.requireNonNull(failure, "a DecodedAttributes holds a map or its failure");
    }
}
