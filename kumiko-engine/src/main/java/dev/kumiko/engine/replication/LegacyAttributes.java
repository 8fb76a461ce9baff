package dev.kumiko.engine.replication;

import dev.kumiko.model.AttributeValue;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attributes global tables of version 2017.11.29 keep in every item of a replica (Developer
 * Guide, "Global tables: How it works", legacy version): {@code aws:rep:deleting} (false),
 * {@code aws:rep:updateregion} (the region the write was made in) and {@code aws:rep:updatetime}
 * (its time in seconds since the epoch, with a fraction). A client's write in a region sets them
 * ({@link dev.kumiko.engine.item.SystemAttributes}); a replicated write carries its origin's, so an
 * item shows the same three in every region. The update time is the write's stamp's time, so last
 * writer wins by it.
 *
 * <p>DynamoDB sets {@code aws:rep:deleting} to true on a replica's item while a delete replicates;
 * Kumiko deletes in one step, so a reader never sees it true.
 */
public final class LegacyAttributes {
    public static final String DELETING = "aws:rep:deleting";
    public static final String UPDATE_REGION = "aws:rep:updateregion";
    public static final String UPDATE_TIME = "aws:rep:updatetime";

    private LegacyAttributes() {}

    /** The three attributes of a write made in region at nowMillis. */
    static Map<String, AttributeValue> of(String region, long nowMillis) {
        assert nowMillis >= 0 : nowMillis;
        Map<String, AttributeValue> out = new LinkedHashMap<>(4);
        out.put(DELETING, AttributeValue.bool(false));
        out.put(UPDATE_REGION, AttributeValue.s(region));
        out.put(UPDATE_TIME, AttributeValue.n(seconds(nowMillis)));
        return out;
    }

    /** Seconds since the epoch with the milliseconds as a fraction, as DynamoDB writes it (e.g. 1554766902.780). */
    static String seconds(long millis) {
        return BigDecimal.valueOf(millis).movePointLeft(3).toPlainString();
    }
}
