package dev.kumiko.server.http;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's one budget of request body bytes in flight, across every connection: a body's bytes
 * are taken when its request's header part has arrived, before the body does
 * ({@link PlainRequestDecoder}, {@link InFlightGate}), and given back when its request has been
 * answered, or when its connection closes before that. Past the budget a request is answered 503 ServiceUnavailable,
 * without its body being kept, so that excess load becomes answers the SDKs retry, never an
 * OutOfMemoryError (each connection alone is bounded already: one body of at most
 * {@code ServerLimits.requestBytesMax}, but 10,000 of them are not).
 *
 * <p>One atomic addition to take and one to give back per request. A request is always let in when
 * nothing else is in flight, so a budget below the largest request never starves that request.
 */
final class InFlightBytes {
    private final long bytesMax;
    private final AtomicLong held = new AtomicLong();

    InFlightBytes(long bytesMax) {
        assert bytesMax > 0 : bytesMax;
        this.bytesMax = bytesMax;
    }

    /** Takes bytes of the budget, or nothing and false when they do not fit. */
    boolean tryTake(long bytes) {
        assert bytes >= 0 : bytes;
        long now = held.addAndGet(bytes);
        if (now <= bytesMax || now == bytes) {
            return true;
        }
        held.addAndGet(-bytes);
        return false;
    }

    /** Gives back bytes taken by {@link #tryTake}. */
    void giveBack(long bytes) {
        long now = held.addAndGet(-bytes);
        assert now >= 0 : now;
    }

    /** Bytes taken now (for tests and metrics). */
    long held() {
        return held.get();
    }

    /**
     * DynamoDB's answer to a service that cannot take the request now: HTTP 503, which every AWS SDK
     * retries with backoff (the Java SDK v2 retries 500, 502, 503 and 504). Not ThrottlingException:
     * DynamoDB gives that for a rate on a table or the account, naming the resource in its reasons,
     * and this bound is the server's own, over all tables.
     */
    DynamoException refusal() {
        // UNVERIFIED wording: DynamoDB's 503 body has no public capture.
        return new DynamoException(
                ErrorCode.SERVICE_UNAVAILABLE,
                "The server is busy: the request bodies it holds " + "are at their bound of " + (bytesMax >> 20)
                        + " MiB (kumiko serve --in-flight-mb). Retry the request.");
    }
}
