package dev.kumiko.ignite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A read the cluster failed transiently runs again, a bounded number of times; any other failure
 * reaches the caller at once. The failures are the shape the Ignite client gives a call past its
 * operation timeout (a TimeoutException under a CompletionException).
 */
class IgniteTransientReadsTest {
    @Test
    void aReadThatTimedOutRunsAgainAndItsAnswerIsReturned() {
        AtomicInteger calls = new AtomicInteger();
        String got = TransientReads.read(() -> {
            if (calls.incrementAndGet() < TransientReads.ATTEMPTS_MAX) {
                throw timedOut();
            }
            return "row";
        });
        assertThat(got).isEqualTo("row");
        assertThat(calls).hasValue(TransientReads.ATTEMPTS_MAX);
    }

    @Test
    void aReadThatKeepsTimingOutFailsAfterTheLastAttempt() {
        AtomicInteger calls = new AtomicInteger();
        CompletionException last = timedOut();
        assertThatThrownBy(() -> TransientReads.read(() -> {
                    calls.incrementAndGet();
                    throw last;
                }))
                .isSameAs(last);
        assertThat(calls).hasValue(TransientReads.ATTEMPTS_MAX);
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
