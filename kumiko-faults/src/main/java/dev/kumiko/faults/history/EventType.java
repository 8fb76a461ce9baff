package dev.kumiko.faults.history;

/**
 * What one line of a history records: an operation's invocation, or how it completed. The three
 * completions are the three things a client can know: it happened, it certainly did not, or the
 * client cannot tell (a timeout, a broken connection, a 5xx: the write may or may not have been
 * applied, and may even be applied later).
 */
public enum EventType {
    INVOKE,
    /** Answered with success: the operation took effect once, between invocation and completion. */
    OK,
    /** Answered with an error that means nothing was applied (a 4xx such as TransactionConflict). */
    FAIL,
    /** Unknown outcome: the operation may have taken effect, at any time after its invocation. */
    INFO;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static EventType ofWireName(String name) {
        for (EventType t : values()) {
            if (t.wireName().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown event type: " + name);
    }
}
