package dev.kumiko.server.exchange;

import dev.kumiko.model.AttributeValue;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One item per line, in one of the formats DynamoDB exports and imports: DynamoDB JSON
 * ({@code {"Item":{...}}}) or Amazon Ion text ({@code {Item:{...}}}). CSV, which only imports, is
 * {@link CsvReader}. A job is given its format in its request: DynamoDB JSON is the wire's own item
 * format, written and read by the protocol's codec, so the protocol makes it; Ion is {@link #ion}.
 */
public interface ItemLineFormat {
    /** The item as one line, without the line break. */
    String write(Map<String, AttributeValue> item);

    /**
     * One line of an incremental export: the time of the item's last write in the period, its keys,
     * and its images (each null when absent), without the line break.
     */
    String writeChange(
            long writeTimestampMicros,
            Map<String, AttributeValue> keys,
            @Nullable Map<String, AttributeValue> oldImage,
            @Nullable Map<String, AttributeValue> newImage);

    /** The item a line holds; IllegalArgumentException says why a line is not one. */
    Map<String, AttributeValue> read(String line);

    /** Data files' name ending in an export, before ".gz". */
    String fileExtension();

    /** Amazon Ion text. */
    static ItemLineFormat ion() {
        return new IonItemLines();
    }
}
