package dev.kumiko.faults.history;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One line of a history. {@code index} orders the events as they happened (an invocation is
 * recorded before its request is sent, a completion after its answer arrived), so real time is the
 * order of indexes; {@code process} is a single-threaded client, which never has two operations open
 * at once. {@code value} is a JSON value: null, Boolean, Long, String, List or Map of those.
 */
public record Event(
        long index,
        long timeNanos,
        int process,
        EventType type,
        String f,
        String key,
        @Nullable Object value) {
    public Event {
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0: " + index);
        }
        if (process < 0) {
            throw new IllegalArgumentException("process must be >= 0: " + process);
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(key, "key");
    }
}
