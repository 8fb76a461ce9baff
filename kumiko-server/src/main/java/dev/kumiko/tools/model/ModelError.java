package dev.kumiko.tools.model;

/**
 * A model file that cannot be used as written, or a check that cannot run: one line for the user. An
 * error found in a file says where, as {@code FILE:LINE:COLUMN: message}, the form compilers use and CI
 * annotations and editors read.
 */
public final class ModelError extends RuntimeException {
    private final boolean located;

    public ModelError(String message) {
        this(message, false);
    }

    private ModelError(String message, boolean located) {
        super(message, null, false, false);
        this.located = located;
    }

    /** The error as found at {@code place} ("chat.json:140:7"), unless it already says where it is. */
    ModelError at(String place) {
        return located || place == null ? this : new ModelError(place + ": " + getMessage(), true);
    }

    /** An error whose message already starts with its place. */
    static ModelError located(String messageWithPlace) {
        return new ModelError(messageWithPlace, true);
    }
}
