package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.SerializableString;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.keys.ByteSink;
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
    private final byte[] json;
    private final int length;

    private StoredItemJson(byte[] json, int length) {
        this.json = json;
        this.length = length;
    }

    static StoredItemJson of(EncodedItem item) {
        ByteSink out = new ByteSink(item.encoded().length + item.encoded().length / 2 + 64);
        ItemJson.write(item.encoded(), out);
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
