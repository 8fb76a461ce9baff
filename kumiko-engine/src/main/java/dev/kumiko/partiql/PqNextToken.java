package dev.kumiko.partiql;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * NextToken: a SELECT's LastEvaluatedKey, base64url, opaque to clients. A key holds only scalar
 * (S, N, B) attributes, so the format is a count and (type, name, value) triples, and decoding a
 * token a client made up is bounded by the token's own length: it cannot allocate more, recurse,
 * or fail other than with DynamoDB's ValidationException.
 */
final class PqNextToken {
    /** Table key plus a multi-attribute index key: at most 2 + 8 attributes. */
    private static final int ATTRIBUTES_MAX = 16;

    private PqNextToken() {}

    static @Nullable String encode(@Nullable Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(lastEvaluatedKey.size());
            for (Map.Entry<String, AttributeValue> e : lastEvaluatedKey.entrySet()) {
                AttributeValue v = e.getValue();
                out.writeByte(v.type().name().charAt(0));
                out.writeUTF(e.getKey());
                if (v instanceof AttributeValue.B b) {
                    out.writeShort(b.value().length);
                    out.write(b.value());
                } else {
                    out.writeUTF(
                            v instanceof AttributeValue.S s
                                    ? s.value()
                                    : ((AttributeValue.N) v).value().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    static @Nullable Map<String, AttributeValue> decode(@Nullable String token) {
        if (token == null) {
            return null;
        }
        try (DataInputStream in = new DataInputStream(
                new ByteArrayInputStream(Base64.getUrlDecoder().decode(token)))) {
            int count = in.readUnsignedByte();
            if (count == 0 || count > ATTRIBUTES_MAX) {
                throw invalid();
            }
            Map<String, AttributeValue> key = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                char type = (char) in.readUnsignedByte();
                String name = in.readUTF();
                key.put(name, value(type, in));
            }
            if (in.available() != 0) {
                throw invalid();
            }
            return key;
        } catch (IOException | RuntimeException e) {
            throw invalid();
        }
    }

    private static AttributeValue value(char type, DataInputStream in) throws IOException {
        switch (type) {
            case 'S':
                return new AttributeValue.S(in.readUTF());
            case 'N':
                return new AttributeValue.N(DynamoNumber.parse(in.readUTF()));
            case 'B':
                int length = in.readUnsignedShort();
                if (length > in.available()) {
                    throw invalid();
                }
                byte[] b = new byte[length];
                in.readFully(b);
                return new AttributeValue.B(b);
            default:
                throw invalid();
        }
    }

    /** UNVERIFIED wording: DynamoDB's tokens are opaque too; it refuses one it did not issue. */
    private static RuntimeException invalid() {
        return PqErrors.validation("Invalid NextToken");
    }
}
