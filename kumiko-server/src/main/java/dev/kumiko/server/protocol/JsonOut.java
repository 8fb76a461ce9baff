package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.server.json.JsonTree;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A response body under construction: a Jackson generator over a byte buffer. The buffer is the
 * thread's spare one when it is free, so that a response does not pay the buffer's growth (for a
 * 15 KB Query page, about twice its size in discarded arrays) on every request. A list of stored
 * items is written into that buffer directly ({@link #items}).
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
        JsonBytes bytes = new JsonBytes(INITIAL_BYTES);
        boolean taken;
    }

    private final JsonBytes bytes;
    private final JsonGenerator gen;
    /** The thread's spare, which this holds until closed; null: this has a buffer of its own. */
    private final @Nullable Spare spare;

    public JsonOut() {
        Spare s = SPARE.get();
        if (s.taken) {
            // Not shared: a JsonOut opened while another is open gets its own buffer.
            spare = null;
            bytes = new JsonBytes(INITIAL_BYTES);
        } else {
            s.taken = true;
            s.bytes.reset(0);
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
        return bytes.toArray();
    }

    /**
     * Hands the body to {@code reader} where it lies, in this JsonOut's buffer, without copying it
     * out: valid only until {@code reader} returns.
     */
    public <A> A read(Operations.BodyReader<A> reader) {
        try {
            gen.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reader.read(bytes.buffer(), bytes.size());
    }

    @Override
    public void close() {
        try {
            gen.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (spare != null) {
                if (bytes.buffer().length > SPARE_BYTES_MAX) {
                    spare.bytes = new JsonBytes(INITIAL_BYTES);
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

    /**
     * Writes [item, ...]. When every item is a stored one still in its bytes and the generator
     * writes into a {@link JsonOut}'s buffer, the items go into that buffer straight from their
     * bytes: the generator is flushed first and never sees them, which an array allows (its end
     * needs no count of what is in it). That saves a page of items two copies, into the thread's
     * item buffer ({@link StoredItemJson}) and through the generator's own.
     */
    public static void items(JsonGenerator g, List<? extends Map<String, AttributeValue>> items) throws IOException {
        g.writeStartArray();
        if (g.getOutputTarget() instanceof JsonBytes body && allStored(items)) {
            g.flush();
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    body.put(',');
                }
                ItemJson.write(((EncodedItem) items.get(i)).encoded(), body);
            }
        } else {
            for (Map<String, AttributeValue> item : items) {
                item(g, item);
            }
        }
        g.writeEndArray();
    }

    private static boolean allStored(List<? extends Map<String, AttributeValue>> items) {
        for (Map<String, AttributeValue> item : items) {
            if (!(item instanceof EncodedItem stored) || stored.isDecoded()) {
                return false;
            }
        }
        return true;
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
