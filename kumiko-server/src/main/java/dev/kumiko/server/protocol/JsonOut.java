package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.server.json.JsonTree;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A response body under construction: a Jackson generator over a byte buffer. The buffer is the
 * thread's spare one when it is free, so that a response does not pay the buffer's growth (for a
 * 15 KB Query page, about twice its size in discarded arrays) on every request.
 */
public final class JsonOut implements AutoCloseable {
    /** A buffer that held more than this is dropped after use, so that no thread keeps a large one. */
    private static final int SPARE_BYTES_MAX = 256 * 1024;
    private static final int INITIAL_BYTES = 256;
    /** Netty's thread-local: an array slot on the event loops, where every response is written. */
    private static final FastThreadLocal<Spare> SPARE = new FastThreadLocal<>() {
        @Override
        protected Spare initialValue() {
            return new Spare();
        }
    };

    /** A thread's spare buffer, and whether an open JsonOut holds it. */
    private static final class Spare {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(INITIAL_BYTES);
        boolean taken;
    }

    private final ByteArrayOutputStream bytes;
    private final JsonGenerator gen;
    /** The thread's spare, which this holds until closed; null: this has a buffer of its own. */
    private final Spare spare;

    public JsonOut() {
        Spare s = SPARE.get();
        if (s.taken) {
            // Not shared: a JsonOut opened while another is open gets its own buffer.
            spare = null;
            bytes = new ByteArrayOutputStream(INITIAL_BYTES);
        } else {
            s.taken = true;
            s.bytes.reset();
            spare = s;
            bytes = s.bytes;
        }
        try {
            gen = JsonTree.factory().createGenerator(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonGenerator gen() {
        return gen;
    }

    public byte[] toBytes() {
        try {
            gen.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public void close() {
        try {
            gen.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (spare != null) {
                if (bytes.size() > SPARE_BYTES_MAX) {
                    spare.bytes = new ByteArrayOutputStream(INITIAL_BYTES);
                }
                spare.taken = false;
            }
        }
    }

    /** Writes {"name": {"S": ...}, ...}. */
    public static void item(JsonGenerator g, Map<String, AttributeValue> item) throws IOException {
        if (item instanceof EncodedItem stored && !stored.isDecoded()) {
            g.writeRawValue(StoredItemJson.of(stored));
            return;
        }
        g.writeStartObject();
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            g.writeFieldName(e.getKey());
            value(g, e.getValue());
        }
        g.writeEndObject();
    }

    public static void value(JsonGenerator g, AttributeValue v) throws IOException {
        g.writeStartObject();
        g.writeFieldName(v.type().wireName());
        switch (v.type()) {
            case S -> g.writeString(((AttributeValue.S) v).value());
            case N -> g.writeString(((AttributeValue.N) v).value().toString());
            case B -> g.writeString(Base64.getEncoder().encodeToString(((AttributeValue.B) v).value()));
            case SS -> {
                g.writeStartArray();
                for (String s : ((AttributeValue.SS) v).values()) {
                    g.writeString(s);
                }
                g.writeEndArray();
            }
            case NS -> {
                g.writeStartArray();
                for (DynamoNumber n : ((AttributeValue.NS) v).values()) {
                    g.writeString(n.toString());
                }
                g.writeEndArray();
            }
            case BS -> {
                g.writeStartArray();
                for (byte[] b : ((AttributeValue.BS) v).values()) {
                    g.writeString(Base64.getEncoder().encodeToString(b));
                }
                g.writeEndArray();
            }
            case M -> item(g, ((AttributeValue.M) v).values());
            case L -> {
                g.writeStartArray();
                for (AttributeValue e : ((AttributeValue.L) v).values()) {
                    value(g, e);
                }
                g.writeEndArray();
            }
            case NULL -> g.writeBoolean(true);
            case BOOL -> g.writeBoolean(((AttributeValue.Bool) v).value());
        }
        g.writeEndObject();
    }

    public static void stringArray(JsonGenerator g, String field, List<String> values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String s : values) {
            g.writeString(s);
        }
        g.writeEndArray();
    }

    /** DynamoDB's timestamps: epoch seconds with a fraction, as JSON numbers. */
    public static void epochSeconds(JsonGenerator g, String field, long epochMillis) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(new java.math.BigDecimal(epochMillis).movePointLeft(3));
    }
}
