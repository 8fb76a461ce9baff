package dev.kumiko.engine.txn;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * ClientRequestToken idempotency for TransactWriteItems, kept in the store: a token is remembered
 * from the commit of its transaction until 10 minutes after it, by every engine over the store
 * and across restarts. A retry with the same request gets the first call's result without running
 * again, a different request IdempotentParameterMismatchException, and a retry while the first
 * call still runs TransactionInProgressException. Only transactions that committed are
 * remembered; a cancelled or refused one left nothing to repeat, so its retry runs afresh.
 *
 * <p>No extra store call per transaction: the token's key joins the transaction's keys (claimed,
 * so a concurrent retry on any engine conflicts on it: in progress), is read in the same multi-get
 * as the items, and its record commits in the same batch as the writes ({@link TokenRecords}).
 * Expired records are removed in bounded steps, at most once per {@link #CLEANUP_INTERVAL_MILLIS}.
 */
final class ClientTokens {
    /** DynamoDB's idempotency window. */
    static final long TOKEN_TTL_MILLIS = 10 * 60 * 1000L;

    static final long CLEANUP_INTERVAL_MILLIS = 60 * 1000L;
    static final int EXPIRED_PER_CLEANUP_MAX = 1_000;

    /** Observed from real DynamoDB for a retry racing its first call (docs/notes/error-messages.md). */
    static final String IN_PROGRESS_MESSAGE = "Transaction from previous request is still in progress";
    /** UNVERIFIED: the API reference's description of the exception, not a captured message. */
    static final String MISMATCH_MESSAGE =
            "DynamoDB rejected the request because you retried a request with a different payload but with an "
                    + "idempotent token that was already used.";

    private static final byte[] EMPTY = new byte[0];

    /** A request's token and the digest of what its retries must repeat. */
    record Token(String token, ByteBuffer fingerprint) {
        byte[] key() {
            return TokenRecords.key(token);
        }
    }

    /**
     * The tokens of transactions running now, with their fingerprints, so that a retry racing its
     * first call can tell "in progress" (same request) from a mismatch (another request). Shared by
     * every engine over a local store; a store shared by processes has none, and a racing retry is
     * then always "in progress".
     */
    static final class Running {
        final ConcurrentHashMap<String, ByteBuffer> byToken = new ConcurrentHashMap<>();
    }

    private final Store store;
    private final Clock clock;
    private final @Nullable ConcurrentHashMap<String, ByteBuffer> running;
    private volatile long nextCleanupMillis;

    ClientTokens(Store store, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.running = store.local() ? store.shared(Running.class, Running::new).byToken : null;
    }

    /** Marks t running; true if this call did (the caller then calls {@link #stopped}). */
    boolean started(Token t) {
        return running != null && running.putIfAbsent(t.token(), t.fingerprint()) == null;
    }

    /** Called only after {@link #started} returned true, which it does only with a running map. */
    void stopped(Token t) {
        Objects.requireNonNull(running, "stopped without started").remove(t.token(), t.fingerprint());
    }

    /** What a retry that conflicted on its token's key hears: in progress, or a mismatch. */
    DynamoException racing(Token t) {
        ByteBuffer first = running == null ? null : running.get(t.token());
        if (first != null && !first.equals(t.fingerprint())) {
            return new DynamoException(ErrorCode.IDEMPOTENT_PARAMETER_MISMATCH, MISMATCH_MESSAGE);
        }
        return new DynamoException(ErrorCode.TRANSACTION_IN_PROGRESS, IN_PROGRESS_MESSAGE);
    }

    /**
     * What the first call committed, when record (the token key's value, read in the transaction)
     * is a live record of the same request; null when the caller is first and must run.
     */
    @Nullable
    Committed earlier(Token t, byte @Nullable [] record) {
        if (record == null) {
            return null;
        }
        TokenRecords.Stored stored = TokenRecords.decode(record);
        if (stored.expiresAtMillis() <= clock.nowMillis()) {
            return null;
        }
        if (!stored.fingerprint().equals(t.fingerprint())) {
            throw new DynamoException(ErrorCode.IDEMPOTENT_PARAMETER_MISMATCH, MISMATCH_MESSAGE);
        }
        return stored.committed();
    }

    /** Adds the token's record to the transaction's batch; previous: the expired record it replaces. */
    void recordIn(WriteBatch batch, Token t, Committed committed, byte @Nullable [] previous) {
        long expiresAt = clock.nowMillis() + TOKEN_TTL_MILLIS;
        if (previous != null) {
            batch.delete(TokenRecords.expiryKey(TokenRecords.decode(previous).expiresAtMillis(), t.token()));
        }
        batch.put(t.key(), TokenRecords.encode(t.fingerprint(), expiresAt, committed))
                .put(TokenRecords.expiryKey(expiresAt, t.token()), EMPTY);
    }

    /** Removes expired tokens when the interval has passed: at most EXPIRED_PER_CLEANUP_MAX. */
    void cleanUpIfDue() {
        long now = clock.nowMillis();
        if (now < nextCleanupMillis) {
            return;
        }
        nextCleanupMillis = now + CLEANUP_INTERVAL_MILLIS;
        for (byte[] expiryKey : expired(now)) {
            forget(expiryKey);
        }
    }

    private List<byte[]> expired(long now) {
        List<byte[]> out = new ArrayList<>();
        try (Cursor c = store.scan(TokenRecords.expiryStart(), TokenRecords.expiryEnd(now), false)) {
            while (out.size() < EXPIRED_PER_CLEANUP_MAX && c.next()) {
                out.add(c.key().clone());
            }
        }
        return out;
    }

    /** Deletes an expired token unless it was used again meanwhile (its record then expires later). */
    private void forget(byte[] expiryKey) {
        byte[] key = TokenRecords.key(TokenRecords.tokenOf(expiryKey));
        try (Transaction txn = store.begin(key)) {
            byte[] record = txn.get(key);
            WriteBatch batch = new WriteBatch().delete(expiryKey);
            if (record != null && TokenRecords.decode(record).expiresAtMillis() == TokenRecords.expiryOf(expiryKey)) {
                batch.delete(key);
            }
            txn.commit(batch);
        } catch (StoreConflictException inUse) {
            // A transaction with this token is running: not retried (it may run for a while, and
            // the cleanup must not wait for it); the next cleanup looks again.
        }
    }
}
