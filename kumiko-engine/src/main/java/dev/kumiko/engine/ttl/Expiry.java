package dev.kumiko.engine.ttl;

import dev.kumiko.model.AttributeValue;
import java.math.BigDecimal;
import java.util.Map;

/**
 * DynamoDB's rule for an expired item (Developer Guide, "How it works: Time to Live"): its TTL
 * attribute is a Number, read as epoch seconds, earlier than now, but not five years earlier or
 * more (a guard against values in milliseconds or other malformed times). Any other value, or
 * none, never expires the item.
 */
final class Expiry {
    /** Five years of 365 days; DynamoDB does not say how it counts leap days (UNVERIFIED). */
    static final long IGNORED_AFTER_MILLIS = 5L * 365 * 24 * 60 * 60 * 1000;

    private Expiry() {}

    static boolean isExpired(Map<String, AttributeValue> item, String attributeName, long nowMillis) {
        if (!(item.get(attributeName) instanceof AttributeValue.N n)) {
            return false;
        }
        BigDecimal atMillis = n.value().value().movePointRight(3);
        return atMillis.compareTo(BigDecimal.valueOf(nowMillis)) < 0
                && atMillis.compareTo(BigDecimal.valueOf(nowMillis - IGNORED_AFTER_MILLIS)) > 0;
    }
}
