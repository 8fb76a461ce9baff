package dev.kumiko.engine.check;

import dev.kumiko.error.DynamoException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The one-item-once rule of the batch and transaction operations. Items are compared by storage
 * key, which names an item across tables; a null key (an action whose key was invalid) names no
 * item and is skipped.
 */
public final class DuplicateKeys {
    private DuplicateKeys() {}

    /** Throws a ValidationException with {@code message} when two keys name the same item. */
    public static void refuse(Collection<byte[]> storageKeys, String message) {
        Set<ByteBuffer> seen = new HashSet<>(storageKeys.size() * 2);
        for (byte[] key : storageKeys) {
            if (key != null && !seen.add(ByteBuffer.wrap(key))) { // content equality, no copy
                throw DynamoException.validation(message);
            }
        }
    }
}
