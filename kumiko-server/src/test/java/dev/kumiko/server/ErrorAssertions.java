package dev.kumiko.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** Asserts the error a call gets back exactly as the SDK observes it: code, HTTP status, message. */
public final class ErrorAssertions {
    private ErrorAssertions() {}

    public static void assertError(ThrowingCallable call, String errorCode, String message) {
        assertError(call, errorCode, 400, message);
    }

    public static void assertError(ThrowingCallable call, String errorCode, int status, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AwsServiceException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).as("error code").isEqualTo(errorCode);
            assertThat(e.statusCode()).as("HTTP status").isEqualTo(status);
            assertThat(e.awsErrorDetails().errorMessage()).as("message").isEqualTo(message);
        });
    }

    public static void assertValidation(ThrowingCallable call, String message) {
        assertError(call, "ValidationException", message);
    }

    /** For cases whose exact DynamoDB text is not known yet: only the code and status are pinned. */
    public static void assertErrorCode(ThrowingCallable call, String errorCode) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AwsServiceException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).as("error code").isEqualTo(errorCode);
            assertThat(e.statusCode()).as("HTTP status").isEqualTo(400);
        });
    }
}
