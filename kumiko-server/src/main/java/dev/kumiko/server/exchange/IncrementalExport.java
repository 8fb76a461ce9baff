package dev.kumiko.server.exchange;

import dev.kumiko.engine.backup.TableHistory;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.json.JsonNumber;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * ExportType INCREMENTAL_EXPORT: the checks of IncrementalExportSpecification and the export's lines.
 *
 * <p>An incremental export holds one line per item that changed in [ExportFromTime, ExportToTime):
 * its keys, the time of its last write in the period, the item at the end of the period (NewImage,
 * absent if it was deleted) and, for NEW_AND_OLD_IMAGES, the item just before the period (OldImage,
 * absent if it did not exist). Several writes to one item in the period make one line, as on DynamoDB.
 * The changes come from point-in-time recovery's {@link TableHistory}; the old images are rebuilt by
 * replaying the history up to just before the period (the change log keeps new images only), which
 * reads the whole table once, so NEW_IMAGE exports are cheaper.
 *
 * <p>The messages of the ValidationExceptions below are UNVERIFIED against DynamoDB (no capture of
 * its wording); the rules themselves (15 minutes to 24 hours, inside the PITR window, PITR on) are
 * the Developer Guide's.
 */
final class IncrementalExport {
    static final String TYPE = "INCREMENTAL_EXPORT";
    /** DynamoDB's shortest incremental export period; a server may lower it for tests. */
    static final long PERIOD_MIN_MILLIS = 15L * 60 * 1000;
    /** DynamoDB's longest incremental export period. */
    static final long PERIOD_MAX_MILLIS = 24L * 60 * 60 * 1000;

    static final List<String> VIEW_TYPES = List.of("NEW_IMAGE", "NEW_AND_OLD_IMAGES");
    static final String VIEW_TYPE_DEFAULT = "NEW_AND_OLD_IMAGES";
    /**
     * Changed items one export gathers in memory (their keys, last new image and, for
     * NEW_AND_OLD_IMAGES, old image); beyond it the export fails and asks for a shorter period.
     */
    static final int CHANGED_ITEMS_MAX = 1_000_000;

    /** The period an export covers, fromMillis inclusive, toMillis exclusive, and its view type. */
    record Period(long fromMillis, long toMillis, String viewType) {
        boolean withOldImages() {
            return "NEW_AND_OLD_IMAGES".equals(viewType);
        }

        /** IncrementalExportSpecification as DescribeExport echoes it: times in epoch seconds, all resolved. */
        Map<String, Object> specification() {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("ExportFromTime", epochSeconds(fromMillis));
            spec.put("ExportToTime", epochSeconds(toMillis));
            spec.put("ExportViewType", viewType);
            return spec;
        }

        private static JsonNumber epochSeconds(long epochMillis) {
            return new JsonNumber(new BigDecimal(epochMillis).movePointLeft(3).toPlainString());
        }
    }

    /** One item's net change over the period; newImage null when the item ended up deleted. */
    private record ItemChange(
            Map<String, AttributeValue> keys,
            long lastWriteMillis,
            @Nullable Map<String, AttributeValue> newImage) {}

    private IncrementalExport() {}

    /** The checks that need no table: the members' values and which go together. */
    static void validateMembers(ExportRequest r) {
        ExportRequest.IncrementalSpec spec = r.incremental();
        if (spec != null) {
            ExportJobs.enumValue(spec.exportViewType(), "incrementalExportSpecification.exportViewType", VIEW_TYPES);
        }
        if (!TYPE.equals(r.exportType())) {
            if (spec != null) {
                throw DynamoException.validation("IncrementalExportSpecification can only be specified when "
                        + "ExportType is INCREMENTAL_EXPORT");
            }
            return;
        }
        if (r.exportTimeMillis() != null) {
            throw DynamoException.validation("ExportTime cannot be specified when ExportType is INCREMENTAL_EXPORT");
        }
        if (spec == null || spec.exportFromTimeMillis() == null) {
            throw DynamoException.validation("IncrementalExportSpecification.ExportFromTime is required when "
                    + "ExportType is INCREMENTAL_EXPORT");
        }
    }

    /**
     * The period of spec, checked against now, DynamoDB's bounds and the table's recovery window
     * (the end defaults to the newest time the window reaches).
     */
    static Period period(
            ExportRequest.IncrementalSpec spec, TableHistory.Window window, long nowMillis, long periodMinMillis) {
        long from = Objects.requireNonNull(spec.exportFromTimeMillis(), "validateMembers refused a spec without it");
        long to = spec.exportToTimeMillis() != null ? spec.exportToTimeMillis() : window.latestMillis() + 1;
        if (from > nowMillis || to > nowMillis) {
            throw new DynamoException(ErrorCode.INVALID_EXPORT_TIME, "Export time is in the future");
        }
        if (from >= to) {
            throw DynamoException.validation("ExportFromTime must be before ExportToTime");
        }
        if (to - from < periodMinMillis) {
            throw DynamoException.validation("The incremental export period (ExportToTime - ExportFromTime) must be "
                    + "at least " + describe(periodMinMillis));
        }
        if (to - from > PERIOD_MAX_MILLIS) {
            throw DynamoException.validation(
                    "The incremental export period (ExportToTime - ExportFromTime) must be " + "at most 24 hours");
        }
        // The state just before the period (from - 1) and its last millisecond (to - 1) must be recoverable.
        if (from - 1 < window.earliestMillis() || to - 1 > window.latestMillis()) {
            throw new DynamoException(
                    ErrorCode.INVALID_EXPORT_TIME,
                    "The specified incremental export period is outside of the point in time recovery window");
        }
        return new Period(from, to, spec.exportViewType() == null ? VIEW_TYPE_DEFAULT : spec.exportViewType());
    }

    /** "15 minutes" for DynamoDB's minimum, milliseconds for a lowered one. */
    private static String describe(long millis) {
        return millis % 60_000 == 0 ? millis / 60_000 + " minutes" : millis + " milliseconds";
    }

    /**
     * Hands one line per item changed in period to sink, in the order of each item's first change.
     * keyNames are the table's hash key and range key (null when it has none).
     */
    static void lines(
            TableHistory history,
            String tableName,
            String hashKey,
            @Nullable String rangeKey,
            Period period,
            ItemLineFormat format,
            Consumer<String> sink) {
        Map<List<AttributeValue>, ItemChange> changes = new LinkedHashMap<>();
        history.forEachChangeBetween(tableName, period.fromMillis() - 1, period.toMillis() - 1, c -> {
            List<AttributeValue> key = key(c.keys(), hashKey, rangeKey);
            if (changes.size() >= CHANGED_ITEMS_MAX && !changes.containsKey(key)) {
                throw new IllegalStateException(
                        "more than " + CHANGED_ITEMS_MAX + " items changed in the period; " + "export shorter periods");
            }
            changes.put(key, new ItemChange(c.keys(), c.createdMillis(), c.newImage()));
        });
        Map<List<AttributeValue>, Map<String, AttributeValue>> oldImages = new HashMap<>();
        if (period.withOldImages() && !changes.isEmpty()) {
            history.forEachItemAt(tableName, period.fromMillis() - 1, item -> {
                List<AttributeValue> key = key(item, hashKey, rangeKey);
                if (changes.containsKey(key)) {
                    oldImages.put(key, item);
                }
            });
        }
        for (Map.Entry<List<AttributeValue>, ItemChange> e : changes.entrySet()) {
            ItemChange c = e.getValue();
            sink.accept(
                    format.writeChange(c.lastWriteMillis() * 1000, c.keys(), oldImages.get(e.getKey()), c.newImage()));
        }
    }

    private static List<AttributeValue> key(
            Map<String, AttributeValue> item, String hashKey, @Nullable String rangeKey) {
        return Arrays.asList(item.get(hashKey), rangeKey == null ? null : item.get(rangeKey));
    }
}
