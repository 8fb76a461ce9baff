package dev.kumiko.engine.txn;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A SHA-256 digest of what a ClientRequestToken retry must repeat, so the token table keeps 32
 * bytes per token instead of the request (up to 4 MB). Maps are digested in key order, because
 * DynamoDB treats member order as insignificant; numbers by value (1.0 equals 1), as DynamoDB
 * normalizes them.
 */
final class RequestFingerprint {
    private final MessageDigest digest;

    private RequestFingerprint() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Everything but the token and ReturnConsumedCapacity, whose answer may differ between calls. */
    static ByteBuffer of(TransactRequests.TransactWrite r) {
        RequestFingerprint f = new RequestFingerprint();
        f.text(nameOf(r.returnItemCollectionMetrics()));
        for (TransactRequests.WriteAction a : r.transactItems()) {
            f.action(a);
        }
        return ByteBuffer.wrap(f.digest.digest()).asReadOnlyBuffer();
    }

    private void action(TransactRequests.WriteAction a) {
        text(nameOf(a.kind()));
        text(a.tableName());
        item(a.item());
        item(a.key());
        text(a.conditionExpression());
        text(a.updateExpression());
        names(a.expressionAttributeNames());
        item(a.expressionAttributeValues());
        text(nameOf(a.returnValuesOnConditionCheckFailure()));
    }

    /** An enum member digests as its wire name, as it did when members were strings. */
    private static @Nullable String nameOf(@Nullable Enum<?> e) {
        return e == null ? null : e.name();
    }

    /** Length-prefixed, with -1 for null, so that no two sequences of fields digest alike. */
    private void text(@Nullable String s) {
        if (s == null) {
            length(-1);
            return;
        }
        bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private void bytes(byte[] b) {
        length(b.length);
        digest.update(b);
    }

    private void length(int n) {
        digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(n).array());
    }

    private void names(@Nullable Map<String, String> names) {
        if (names == null) {
            length(-1);
            return;
        }
        length(names.size());
        new TreeMap<>(names).forEach((k, v) -> {
            text(k);
            text(v);
        });
    }

    private void item(@Nullable Map<String, AttributeValue> item) {
        if (item == null) {
            length(-1);
            return;
        }
        length(item.size());
        new TreeMap<>(item).forEach((k, v) -> {
            text(k);
            value(v);
        });
    }

    private void value(AttributeValue v) {
        text(v.type().wireName());
        switch (v.type()) {
            case S -> text(((AttributeValue.S) v).value());
            case N -> number(((AttributeValue.N) v).value());
            case B -> bytes(((AttributeValue.B) v).value());
            case SS -> {
                length(((AttributeValue.SS) v).values().size());
                ((AttributeValue.SS) v).values().forEach(this::text);
            }
            case NS -> {
                length(((AttributeValue.NS) v).values().size());
                ((AttributeValue.NS) v).values().forEach(this::number);
            }
            case BS -> {
                length(((AttributeValue.BS) v).values().size());
                ((AttributeValue.BS) v).values().forEach(this::bytes);
            }
            case M -> item(((AttributeValue.M) v).values());
            case L -> {
                length(((AttributeValue.L) v).values().size());
                ((AttributeValue.L) v).values().forEach(this::value);
            }
            case NULL -> length(0);
            case BOOL -> length(((AttributeValue.Bool) v).value() ? 1 : 0);
        }
    }

    private void number(DynamoNumber n) {
        text(n.value().stripTrailingZeros().toPlainString());
    }
}
