package dev.kumiko.server.auth;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.Map;

/**
 * The authorizer until policy evaluation is wired in: a key without a policy may do everything, and a
 * key with one is refused outright, since allowing it would silently ignore the policy it carries.
 */
public final class AdminKeysOnly implements RequestAuthorizer {
    public static final AdminKeysOnly INSTANCE = new AdminKeysOnly();

    private AdminKeysOnly() {}

    @Override
    public void authorize(AccessKey key, String operation, boolean streams, Map<String, Object> body, String region) {
        if (key.policy() == null) {
            return;
        }
        // Kumiko's own text (no policy engine in this build); DynamoDB's AccessDenied names the resource too.
        throw new DynamoException(ErrorCode.ACCESS_DENIED, "User: " + key.principalArn()
                + " is not authorized to perform: dynamodb:" + operation
                + " because this server does not evaluate key policies");
    }
}
