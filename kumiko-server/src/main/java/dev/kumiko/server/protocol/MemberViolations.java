package dev.kumiko.server.protocol;

import dev.kumiko.error.DynamoException;

/**
 * A decoder found violations of the API model's member constraints. They are answered after the
 * authorization rule has seen the request, so a caller the policy denies learns nothing about the
 * members' rules first: the decoder throws this with the request typed as far as it could be (an
 * enum member that is not one of its values reads as absent), {@link Operations} authorizes that
 * request and then answers {@link #failure()}.
 */
final class MemberViolations extends RuntimeException {
    private final transient Object request;
    private final DynamoException failure;

    private MemberViolations(Object request, DynamoException failure) {
        super(failure.getMessage(), null, false, false);
        this.request = request;
        this.failure = failure;
    }

    /** Runs the member checks; their DynamoException becomes a MemberViolations about {@code request}. */
    static void check(Object request, Runnable checks) {
        try {
            checks.run();
        } catch (DynamoException e) {
            throw new MemberViolations(request, e);
        }
    }

    /** The request as the authorization rule sees it. */
    @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // each rule knows its request's type
    <R> R request() {
        return (R) request;
    }

    DynamoException failure() {
        return failure;
    }
}
