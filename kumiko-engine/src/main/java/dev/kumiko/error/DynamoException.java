package dev.kumiko.error;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request DynamoDB would reject, carrying the exact error type and message it would answer
 * with. Thrown from anywhere below the protocol layer; the server turns it into the error body.
 * No stack trace: these are expected outcomes, not bugs, and filling traces costs time on
 * validation-heavy workloads.
 */
public class DynamoException extends RuntimeException {
    private final ErrorCode code;

    /** message: null only for an UnknownOperationException, whose body DynamoDB sends without one. */
    public DynamoException(ErrorCode code, @Nullable String message) {
        super(message, null, false, false);
        this.code = Objects.requireNonNull(code);
    }

    public ErrorCode code() {
        return code;
    }

    public static DynamoException validation(String message) {
        return new DynamoException(ErrorCode.VALIDATION, message);
    }

    /** DynamoDB's prefix for item and parameter checks. */
    public static DynamoException invalidParameter(String detail) {
        return validation("One or more parameter values were invalid: " + detail);
    }

    public static DynamoException resourceNotFound(String message) {
        return new DynamoException(ErrorCode.RESOURCE_NOT_FOUND, message);
    }

    public static DynamoException serialization(String message) {
        return new DynamoException(ErrorCode.SERIALIZATION, message);
    }
}
