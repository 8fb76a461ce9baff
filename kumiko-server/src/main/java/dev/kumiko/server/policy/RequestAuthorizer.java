package dev.kumiko.server.policy;

import dev.kumiko.server.auth.AccessKey;

/**
 * Decides whether a request whose signature was verified may run. Called once the request is
 * decoded and before the engine runs it, only when the server runs with {@code --auth=sigv4}.
 */
public interface RequestAuthorizer {
    /**
     * Returns normally to allow; throws {@code DynamoException(ErrorCode.ACCESS_DENIED, message)} to refuse.
     *
     * @param key     the verified access key
     * @param region  the region of the signature's credential scope
     * @param rule    the operation's authorization rule (from its registration)
     * @param request the decoded request the rule reads its facts from
     */
    <R> void authorize(AccessKey key, String region, AuthRule<R> rule, R request);

    /** Lets every verified key do everything. */
    RequestAuthorizer ALLOW_ALL = new RequestAuthorizer() {
        @Override
        public <R> void authorize(AccessKey key, String region, AuthRule<R> rule, R request) {
            // Every verified key may do everything.
        }
    };
}
