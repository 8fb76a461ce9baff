package dev.kumiko.engine.txn;

import dev.kumiko.engine.Clock;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * ClientRequestToken idempotency for TransactWriteItems. A token is remembered from its first use
 * until 10 minutes after that call completed: a retry with the same request gets the first call's
 * result without running again, a different request IdempotentParameterMismatchException, and a
 * retry while the first call still runs TransactionInProgressException. Only transactions that
 * committed are remembered; a cancelled or refused one left nothing to repeat, so its retry runs
 * afresh.
 *
 * <p>The SDKs fill in a random token for every TransactWriteItems call, so every transaction
 * passes through here; a token costs a 32-byte digest of its request (RequestFingerprint) and the
 * small result. Bounded: past {@link #TOKENS_MAX} remembered tokens the oldest completed ones are
 * forgotten early (their retries would then run again), so memory never grows with traffic.
 */
final class ClientTokens<R> {
    /** DynamoDB's idempotency window. */
    static final long TOKEN_TTL_MILLIS = 10 * 60 * 1000L;
    static final int TOKENS_MAX = 100_000;

    /** Observed from real DynamoDB for a retry racing its first call (docs/notes/error-messages.md). */
    static final String IN_PROGRESS_MESSAGE = "Transaction from previous request is still in progress";
    /** UNVERIFIED: the API reference's description of the exception, not a captured message. */
    static final String MISMATCH_MESSAGE =
            "DynamoDB rejected the request because you retried a request with a different payload but with an "
                    + "idempotent token that was already used.";

    private record Entry<R>(Object fingerprint, R result, long expiresAtMillis) {
        boolean inProgress() {
            return result == null;
        }
    }

    private final Clock clock;
    private final LinkedHashMap<String, Entry<R>> entries = new LinkedHashMap<>();

    ClientTokens(Clock clock) {
        this.clock = clock;
    }

    /**
     * The earlier result to answer with, or null when the caller is first and must run the
     * request, then call {@link #finish}.
     */
    synchronized R begin(String token, Object fingerprint) {
        long now = clock.nowMillis();
        forgetExpired(now);
        Entry<R> e = entries.get(token);
        if (e != null && !e.inProgress() && e.expiresAtMillis() <= now) {
            entries.remove(token);
            e = null;
        }
        if (e == null) {
            entries.put(token, new Entry<>(fingerprint, null, Long.MAX_VALUE));
            return null;
        }
        if (!Objects.equals(e.fingerprint(), fingerprint)) {
            throw new DynamoException(ErrorCode.IDEMPOTENT_PARAMETER_MISMATCH, MISMATCH_MESSAGE);
        }
        if (e.inProgress()) {
            throw new DynamoException(ErrorCode.TRANSACTION_IN_PROGRESS, IN_PROGRESS_MESSAGE);
        }
        return e.result();
    }

    /** Records the committed result, or forgets the token when the call did not commit (null). */
    synchronized void finish(String token, R result) {
        Entry<R> e = entries.remove(token);
        assert e != null && e.inProgress() : "finish without begin: " + token;
        if (result != null) {
            entries.put(token, new Entry<>(e.fingerprint(), result, clock.nowMillis() + TOKEN_TTL_MILLIS));
        }
    }

    /**
     * Entries sit in completion order, so expired ones are at the head; in-progress entries are
     * skipped over. Past the cap, the oldest completed entries go too.
     */
    private void forgetExpired(long now) {
        Iterator<Map.Entry<String, Entry<R>>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Entry<R> e = it.next().getValue();
            if (e.inProgress()) {
                continue;
            }
            if (e.expiresAtMillis() > now && entries.size() < TOKENS_MAX) {
                return;
            }
            it.remove();
        }
    }

    synchronized int size() {
        return entries.size();
    }
}
