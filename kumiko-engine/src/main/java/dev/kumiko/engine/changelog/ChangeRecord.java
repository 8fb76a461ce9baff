package dev.kumiko.engine.changelog;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One committed change of one item, as the change log keeps it: its table-wide sequence number,
 * what happened, when, who did it, and the item's keys and images. Which images are kept depends
 * on the stream view type in force when the change was made; an absent image is null.
 */
public record ChangeRecord(
        long sequence,
        EventName eventName,
        long createdMillis,
        ViewType viewType,
        ChangeOrigin origin,
        Map<String, AttributeValue> keys,
        @Nullable Map<String, AttributeValue> newImage,
        @Nullable Map<String, AttributeValue> oldImage) {

    /** The stream record's eventName. */
    public enum EventName {
        INSERT,
        MODIFY,
        REMOVE
    }

    /** DynamoDB's StreamViewType: which images a stream record carries. */
    public enum ViewType {
        KEYS_ONLY(false, false),
        NEW_IMAGE(true, false),
        OLD_IMAGE(false, true),
        NEW_AND_OLD_IMAGES(true, true);

        private final boolean keepsNew;
        private final boolean keepsOld;

        ViewType(boolean keepsNew, boolean keepsOld) {
            this.keepsNew = keepsNew;
            this.keepsOld = keepsOld;
        }

        public boolean keepsNew() {
            return keepsNew;
        }

        public boolean keepsOld() {
            return keepsOld;
        }
    }

    public ChangeRecord {
        assert sequence > 0 : "sequence numbers start at 1";
        assert keys != null && !keys.isEmpty();
        assert newImage == null || viewType.keepsNew();
        assert oldImage == null || viewType.keepsOld();
    }

    /**
     * The record's SizeBytes: the item size of its keys and the images it carries. The API
     * Reference's GetRecords example (41 bytes for a two-attribute key, KEYS_ONLY) matches this.
     */
    public long sizeBytes() {
        long size = ItemSize.of(keys);
        if (newImage != null) {
            size += ItemSize.of(newImage);
        }
        if (oldImage != null) {
            size += ItemSize.of(oldImage);
        }
        return size;
    }
}
