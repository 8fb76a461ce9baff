package dev.kumiko.server.policy;

import java.util.List;

/**
 * The permissions one decoded request needs, as IAM is asked for them. Every registered operation
 * has one; there is no default, so an operation nobody thought about cannot run unchecked.
 */
@FunctionalInterface
public interface AuthRule<R> {
    List<AuthorizationCheck> checks(R request, AuthFacts facts);

    /**
     * For endpoints outside the DynamoDB API that no key or policy can grant (Kumiko's admin
     * endpoints): the server refuses them whenever requests are signed, before any rule is asked.
     */
    static <R> AuthRule<R> neverGrantable() {
        return (request, facts) -> {
            throw new IllegalStateException("an endpoint no policy can grant was asked for its permissions");
        };
    }
}
