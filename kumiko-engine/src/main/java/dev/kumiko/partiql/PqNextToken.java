package dev.kumiko.partiql;

import dev.kumiko.codec.ItemCodec;
import dev.kumiko.model.AttributeValue;
import java.util.Base64;
import java.util.Map;

/** NextToken: a SELECT's LastEvaluatedKey in Kumiko's item encoding, base64url, opaque to clients. */
final class PqNextToken {
    private PqNextToken() {}

    static String encode(Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(ItemCodec.encode(lastEvaluatedKey));
    }

    static Map<String, AttributeValue> decode(String token) {
        if (token == null) {
            return null;
        }
        try {
            return ItemCodec.decode(Base64.getUrlDecoder().decode(token));
        } catch (RuntimeException e) {
            // UNVERIFIED wording: DynamoDB's tokens are opaque too; it refuses one it did not issue.
            throw PqErrors.validation("Invalid NextToken");
        }
    }
}
