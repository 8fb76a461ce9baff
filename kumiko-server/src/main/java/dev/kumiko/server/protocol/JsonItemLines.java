package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.server.exchange.ItemLineFormat;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * DynamoDB JSON lines: {@code {"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}}, as exports write them. An
 * item is the wire's own DynamoDB JSON, so this format lives with the wire's codec and comes to the
 * jobs in their requests ({@link ExchangeOperations}).
 */
final class JsonItemLines implements ItemLineFormat {
    @Override
    public String write(Map<String, AttributeValue> item) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            g.writeStartObject();
            g.writeFieldName("Item");
            JsonOut.item(g, item);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** {@code {"Metadata":{"WriteTimestampMicros":{"N":"..."}},"Keys":{..},"OldImage":{..},"NewImage":{..}}}. */
    @Override
    public String writeChange(
            long writeTimestampMicros,
            Map<String, AttributeValue> keys,
            @Nullable Map<String, AttributeValue> oldImage,
            @Nullable Map<String, AttributeValue> newImage) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            g.writeStartObject();
            g.writeObjectFieldStart("Metadata");
            g.writeObjectFieldStart("WriteTimestampMicros");
            g.writeStringField("N", Long.toString(writeTimestampMicros));
            g.writeEndObject();
            g.writeEndObject();
            g.writeFieldName("Keys");
            JsonOut.item(g, keys);
            if (oldImage != null) {
                g.writeFieldName("OldImage");
                JsonOut.item(g, oldImage);
            }
            if (newImage != null) {
                g.writeFieldName("NewImage");
                JsonOut.item(g, newImage);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    @Override
    public Map<String, AttributeValue> read(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        try {
            Map<String, AttributeValue> item =
                    AttributeValues.item(JsonTree.parseObject(bytes, 0, bytes.length), "Item");
            if (item == null) {
                throw new IllegalArgumentException("the line has no \"Item\" object");
            }
            return item;
        } catch (DynamoException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    @Override
    public String fileExtension() {
        return ".json";
    }
}
