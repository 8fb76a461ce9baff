package dev.kumiko.tools.model;

/** A model file that cannot be used as written, or a check that cannot run: one line for the user. */
public final class ModelError extends RuntimeException {
    public ModelError(String message) {
        super(message, null, false, false);
    }
}
