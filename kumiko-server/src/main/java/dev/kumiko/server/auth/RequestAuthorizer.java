package dev.kumiko.server.auth;

import java.util.Map;

/**
 * Decides whether a request whose signature was verified may run. Called by the HTTP handler after
 * the body is parsed and before the operation, only when the server runs with {@code --auth=sigv4}.
 */
@FunctionalInterface
public interface RequestAuthorizer {
    /**
     * Returns normally to allow; throws {@code DynamoException(ErrorCode.ACCESS_DENIED, message)} to refuse.
     *
     * @param key       the verified access key
     * @param operation the bare operation name ("GetItem"; the Streams name when {@code streams})
     * @param streams   whether the request came in for DynamoDB Streams
     * @param body      the parsed request
     * @param region    the region of the signature's credential scope
     */
    void authorize(AccessKey key, String operation, boolean streams, Map<String, Object> body, String region);

    /** Lets every verified key do everything. */
    RequestAuthorizer ALLOW_ALL = (key, operation, streams, body, region) -> { };
}
