package dev.kumiko.engine.read;

import dev.kumiko.storage.Bytes;

/** A store range [start, end) of item keys. An empty range has start >= end. */
record KeyRange(byte[] start, byte[] end) {

    boolean isEmpty() {
        return Bytes.ORDER.compare(start, end) >= 0;
    }

    /** The range limited to keys after {@code key} (forward paging). */
    KeyRange after(byte[] key) {
        byte[] successor = Bytes.concat(key, new byte[] {0});
        return Bytes.ORDER.compare(successor, start) > 0 ? new KeyRange(successor, end) : this;
    }

    /** The range limited to keys before {@code key} (reverse paging). */
    KeyRange before(byte[] key) {
        return Bytes.ORDER.compare(key, end) < 0 ? new KeyRange(start, key) : this;
    }

    boolean contains(byte[] key) {
        return Bytes.ORDER.compare(key, start) >= 0 && Bytes.ORDER.compare(key, end) < 0;
    }
}
