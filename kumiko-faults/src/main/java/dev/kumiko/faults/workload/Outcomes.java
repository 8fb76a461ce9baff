package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.EventType;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * What an error says about whether the operation took effect. DynamoDB answers a request it refused
 * (validation, a failed condition, a cancelled transaction, a conflict, throttling) with a 4xx, and
 * such a request wrote nothing. A 5xx, a timeout or a broken connection says nothing: the write may
 * have been applied, or may be applied later; except a refused connection (the server is down),
 * which sent nothing.
 */
final class Outcomes {
    private Outcomes() {}

    static EventType of(Throwable error) {
        if (error instanceof AwsServiceException service) {
            int status = service.statusCode();
            if (status >= 400 && status < 500) {
                return EventType.FAIL;
            }
        }
        return refusedConnection(error) ? EventType.FAIL : EventType.INFO;
    }

    /** A refused connection sent no byte of the request: nothing can have been applied. */
    private static boolean refusedConnection(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** A short name for the error, for the run's summary of what went wrong. */
    static String name(Throwable error) {
        if (error instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            String code = service.awsErrorDetails().errorCode();
            return code != null ? code : "HTTP " + service.statusCode();
        }
        return error.getClass().getSimpleName();
    }
}
