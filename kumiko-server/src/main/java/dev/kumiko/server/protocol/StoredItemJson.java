package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.SerializableString;
import dev.kumiko.codec.EncodedItem;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A stored item's JSON, handed to Jackson as a raw value so the generator keeps its separators
 * and nesting while the bytes come straight from the store (ItemJson). Only the unquoted-UTF-8
 * methods are used by Jackson's raw-value path; the others are never called for raw values.
 */
final class StoredItemJson implements SerializableString {
    /** A thread keeps its buffer up to this size (an item is at most 400 KB stored). */
    private static final int SPARE_BYTES_MAX = 1024 * 1024;

    private static final int INITIAL_BYTES = 1024;
    private static final FastThreadLocal<JsonBytes> SPARE = new FastThreadLocal<>() {
        @Override
        protected JsonBytes initialValue() {
            return new JsonBytes(INITIAL_BYTES);
        }
    };

    private final byte[] json;
    private final int length;

    private StoredItemJson(byte[] json, int length) {
        this.json = json;
        this.length = length;
    }

    /**
     * The item's JSON in the thread's buffer: valid until the thread asks again, which is why
     * {@link JsonOut} hands it to the generator (which copies it) at once.
     */
    static StoredItemJson of(EncodedItem item) {
        JsonBytes out = SPARE.get().reset(item.encoded().length + item.encoded().length / 2 + 64);
        ItemJson.write(item.encoded(), out);
        if (out.buffer().length > SPARE_BYTES_MAX) {
            // An unusually large item (binary grows by a third in base64, escapes up to 6x): its
            // buffer is not kept; the thread starts a small one next time.
            SPARE.remove();
        }
        return new StoredItemJson(out.buffer(), out.size());
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + length > buffer.length) {
            return -1; // Jackson then writes asUnquotedUTF8() through its own buffer
        }
        System.arraycopy(json, 0, buffer, offset, length);
        return length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return Arrays.copyOf(json, length);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(json, 0, length);
        return length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (buffer.remaining() < length) {
            return -1;
        }
        buffer.put(json, 0, length);
        return length;
    }

    // Quoted and char forms are for field names and string values, never for a raw value.
    @Override
    public String getValue() {
        return new String(json, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }

    @Override
    public byte[] asQuotedUTF8() {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        String s = getValue();
        if (offset + s.length() > buffer.length) {
            return -1;
        }
        s.getChars(0, s.length(), buffer, offset);
        return s.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        throw new UnsupportedOperationException("a raw item value is never quoted");
    }
}
