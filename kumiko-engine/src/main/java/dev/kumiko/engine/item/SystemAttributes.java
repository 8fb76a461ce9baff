package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.model.AttributeValue;
import java.util.Map;

/**
 * Attributes the service itself writes into a client's item as it commits, as DynamoDB's global
 * tables of version 2017.11.29 write {@code aws:rep:*} into every item of a replica. They are
 * stored with the item, count toward its size, and are visible to reads; the write's change record
 * carries the same time the attributes name ({@link ItemWriter}).
 */
public interface SystemAttributes {
    /** None: the writer then reads no clock and asks nothing per write. */
    SystemAttributes NONE = new None();

    /** The attributes to set on a client's new item of t written at nowMillis; empty for none. */
    Map<String, AttributeValue> of(Table t, long nowMillis);

    /** A class, not a lambda: an engine opens without spinning a hidden class (OpenLinksNoLambdaTest). */
    final class None implements SystemAttributes {
        private None() {}

        @Override
        public Map<String, AttributeValue> of(Table t, long nowMillis) {
            return Map.of();
        }
    }
}
