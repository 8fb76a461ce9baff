package dev.kumiko.server.http;

import dev.kumiko.error.ErrorCode;

/**
 * The HTTP status DynamoDB answers each error with: 400 for everything the client can fix, 413
 * for a request body over the limit, 500 for the server's own failures, 503 for a server at its bound
 * of requests in flight.
 */
public final class ErrorStatuses {
    private ErrorStatuses() {}

    public static int of(ErrorCode code) {
        return switch (code) {
            case REQUEST_TOO_LARGE -> 413;
            case INTERNAL_FAILURE, INTERNAL_SERVER_ERROR -> 500;
            case SERVICE_UNAVAILABLE -> 503;
            default -> 400;
        };
    }
}
