package dev.kumiko.engine.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.StoreConflictException;
import org.junit.jupiter.api.Test;

/**
 * The item writers' give-up answers, through the engine's own runner: what a client hears when a
 * single-item write or a BatchWriteItem meets a transaction's claim or keeps racing. The run that
 * exhausts its attempts pauses for real (about 1.3 s); nothing here measures time.
 */
class ConflictRetryTest {
    /** Conflicts its first n attempts (claimed ones if claimed), then answers "done". */
    private static final class Conflicting implements ReadModifyWrite.Body<String> {
        final int conflicts;
        final boolean claimed;
        int attempts;

        Conflicting(int conflicts, boolean claimed) {
            this.conflicts = conflicts;
            this.claimed = claimed;
        }

        @Override
        public String attempt() {
            attempts++;
            if (attempts <= conflicts) {
                throw new StoreConflictException(null, claimed);
            }
            return "done";
        }
    }

    private static void assertTransactionConflict(DynamoException e) {
        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.TRANSACTION_CONFLICT);
        assertThat(e).hasMessage(CancellationReason.TRANSACTION_CONFLICT_MESSAGE);
    }

    @Test
    void aSingleItemWriteToAClaimedKeyIsATransactionConflictAtOnce() {
        Conflicting body = new Conflicting(1, true);

        assertTransactionConflict(catchThrowableOfType(() -> ConflictRetry.singleItem(body), DynamoException.class));
        assertThat(body.attempts).isEqualTo(1);
    }

    @Test
    void aSingleItemWriteThatKeepsRacingIsATransactionConflictAfterTheLastAttempt() {
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false);

        assertTransactionConflict(catchThrowableOfType(() -> ConflictRetry.singleItem(body), DynamoException.class));
        assertThat(body.attempts).isEqualTo(ReadModifyWrite.ATTEMPTS_MAX);
    }

    @Test
    void aSingleItemWriteThatRacedCommitsOnALaterAttempt() {
        Conflicting body = new Conflicting(2, false);

        assertThat(ConflictRetry.singleItem(body)).isEqualTo("done");
        assertThat(body.attempts).isEqualTo(3);
    }

    @Test
    void aBatchWriteWaitsOutAClaimedKey() {
        Conflicting body = new Conflicting(2, true);

        assertThat(ConflictRetry.batchWrite(body)).isEqualTo("done");
        assertThat(body.attempts).isEqualTo(3);
    }
}
