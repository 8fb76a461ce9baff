package dev.kumiko.ignite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ignite.lang.ErrorGroups;
import org.apache.ignite.lang.IgniteException;
import org.junit.jupiter.api.Test;

/**
 * A read the cluster failed transiently runs again, bounded in attempts and time; any other failure
 * reaches the caller at once. The failures are the shape the Ignite client gives a call past its
 * operation timeout (a TimeoutException under a CompletionException).
 */
class IgniteTransientReadsTest {
    @Test
    void aReadThatTimedOutRunsAgainAndItsAnswerIsReturned() {
        AtomicInteger calls = new AtomicInteger();
        String got = TransientReads.read(() -> {
            if (calls.incrementAndGet() < 3) {
                throw timedOut();
            }
            return "row";
        });
        assertThat(got).isEqualTo("row");
        assertThat(calls).hasValue(3);
    }

    @Test
    void aPlacementInProgressIsRetriedLikeATimeout() {
        AtomicInteger calls = new AtomicInteger();
        String got = TransientReads.read(() -> {
            if (calls.incrementAndGet() < 2) {
                throw new IgniteException(
                        ErrorGroups.PlacementDriver.PRIMARY_REPLICA_AWAIT_TIMEOUT_ERR, "no primary replica yet");
            }
            return "row";
        });
        assertThat(got).isEqualTo("row");
        assertThat(calls).hasValue(2);
    }

    @Test
    void fastFailuresAreRetriedUntilTheDeadlineAndSlowOnesThreeTimes() {
        assertThat(TransientReads.retries(1, 0)).isTrue();
        assertThat(TransientReads.retries(30, TransientReads.DEADLINE_MILLIS - 1))
                .isTrue();
        assertThat(TransientReads.retries(30, TransientReads.DEADLINE_MILLIS)).isFalse();
        assertThat(TransientReads.retries(TransientReads.ATTEMPTS_MAX, 0)).isFalse();
        // two calls that each waited out a 5 s operation timeout get a third
        assertThat(TransientReads.retries(2, 10_000)).isTrue();
        assertThat(TransientReads.retries(3, 10_000)).isFalse();
        assertThat(TransientReads.retries(2, 15_000)).isFalse();
    }

    @Test
    void aFailureThatIsNotTransientIsNotRunAgain() {
        AtomicInteger calls = new AtomicInteger();
        IllegalArgumentException bad = new IllegalArgumentException("bad key");
        assertThatThrownBy(() -> TransientReads.read(() -> {
                    calls.incrementAndGet();
                    throw bad;
                }))
                .isSameAs(bad);
        assertThat(calls).hasValue(1);
    }

    private static CompletionException timedOut() {
        return new CompletionException(new TimeoutException());
    }
}
