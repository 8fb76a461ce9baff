package dev.kumiko.server.policy;

/** An invalid policy document: reported once at startup, naming the key and the element at fault. */
public final class PolicyException extends IllegalArgumentException {
    public PolicyException(String message) {
        super(message);
    }
}
