package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kumiko.storage.ReadModifyWrite.Claimed;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runner with a pauser that records the pauses asked for and a clock the test moves: every
 * assertion is about counts and values, none about real time.
 */
class ReadModifyWriteTest {
    private static final long MILLIS = 1_000_000;

    /** The test's clock; the pauser moves it by each pause's cap when asked to. */
    private long nowNanos = 1_000 * MILLIS;

    private boolean pausesTakeTime;
    private int clockReads;
    private final List<Long> pausesMicros = new ArrayList<>();
    private final ReadModifyWrite runner = new ReadModifyWrite(
            capMicros -> {
                pausesMicros.add(capMicros);
                if (pausesTakeTime) {
                    nowNanos += capMicros * 1_000;
                }
            },
            () -> {
                clockReads++;
                return nowNanos;
            });

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** Conflicts its first n attempts (claimed ones if claimed), then answers "done". */
    private final class Conflicting implements ReadModifyWrite.Body<String> {
        final int conflicts;
        final boolean claimed;
        final long attemptNanos;
        int attempts;

        Conflicting(int conflicts, boolean claimed, long attemptNanos) {
            this.conflicts = conflicts;
            this.claimed = claimed;
            this.attemptNanos = attemptNanos;
        }

        @Override
        public String attempt() {
            attempts++;
            nowNanos += attemptNanos;
            if (attempts <= conflicts) {
                throw new StoreConflictException(new int[] {attempts}, claimed);
            }
            return "done";
        }
    }

    /** A give-up answer that names the last conflict, so a test sees which one ended the run. */
    private static String gaveUp(StoreConflictException last) {
        return "gave up after conflict " + last.keyIndexes()[0];
    }

    @Test
    void aFirstAttemptThatCommitsNeitherPausesNorReadsTheClock() {
        Conflicting body = new Conflicting(0, false, 0);

        assertThat(runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body))
                .isEqualTo("done");
        assertThat(body.attempts).isEqualTo(1);
        assertThat(pausesMicros).isEmpty();
        assertThat(clockReads).isZero();
    }

    @Test
    void aRaceRunsTheBodyAgainAfterPausesThatDouble() {
        Conflicting body = new Conflicting(3, false, 0);

        assertThat(runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body))
                .isEqualTo("done");
        assertThat(body.attempts).isEqualTo(4);
        long first = ReadModifyWrite.BACKOFF_MICROS_FIRST;
        assertThat(pausesMicros).containsExactly(first, 2 * first, 4 * first);
    }

    @Test
    void racesThatOutlastTheAttemptsEndInTheGiveUpAnswerForTheLastConflict() {
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false, 0);

        String answer = runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body);

        assertThat(body.attempts).isEqualTo(ReadModifyWrite.ATTEMPTS_MAX);
        assertThat(answer).isEqualTo("gave up after conflict " + ReadModifyWrite.ATTEMPTS_MAX);
        assertThat(pausesMicros).hasSize(ReadModifyWrite.ATTEMPTS_MAX - 1);
    }

    @Test
    void oneMoreConflictThanTheLastAttemptStillCommitsWhenTheLastAttemptDoes() {
        Conflicting body = new Conflicting(ReadModifyWrite.ATTEMPTS_MAX - 1, false, 0);

        assertThat(runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body))
                .isEqualTo("done");
        assertThat(body.attempts).isEqualTo(ReadModifyWrite.ATTEMPTS_MAX);
    }

    @Test
    void theGiveUpAnswerMayThrowWhatTheClientSees() {
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false, 0);

        assertThatThrownBy(() -> runner.run(
                        Claimed.GIVE_UP,
                        last -> {
                            throw new IllegalStateException("kept conflicting", last);
                        },
                        body))
                .isInstanceOf(IllegalStateException.class)
                .hasCauseInstanceOf(StoreConflictException.class);
    }

    @Test
    void aClaimedKeyGivesUpAtOnceWhenTheCallerSaysSo() {
        Conflicting body = new Conflicting(1, true, 0);

        assertThat(runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body))
                .isEqualTo("gave up after conflict 1");
        assertThat(body.attempts).isEqualTo(1);
        assertThat(pausesMicros).isEmpty();
    }

    @Test
    void aClaimedKeyIsWaitedOutWhenTheCallerSaysSo() {
        Conflicting body = new Conflicting(2, true, 0);

        assertThat(runner.run(Claimed.RETRY, ReadModifyWriteTest::gaveUp, body)).isEqualTo("done");
        assertThat(body.attempts).isEqualTo(3);
        assertThat(pausesMicros).hasSize(2);
    }

    @Test
    void slowAttemptsStopAtTheDeadlineCountedFromTheFirstConflict() {
        long attemptNanos = 5_000 * MILLIS;
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false, attemptNanos);

        String answer = runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body);

        // After the first conflict, each further attempt takes 5 s of the 20 s: four fit, and the
        // conflict of the fourth comes at the deadline.
        long further = ReadModifyWrite.DEADLINE_MILLIS * MILLIS / attemptNanos;
        assertThat(further).isEqualTo(4);
        assertThat(body.attempts).isEqualTo(1 + further);
        assertThat(answer).isEqualTo("gave up after conflict " + (1 + further));
    }

    @Test
    void pausesAloneDoNotReachTheDeadline() {
        pausesTakeTime = true;
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false, 0);

        runner.run(Claimed.GIVE_UP, ReadModifyWriteTest::gaveUp, body);

        long pausedMicros = pausesMicros.stream().mapToLong(Long::longValue).sum();
        assertThat(pausedMicros).isLessThan(ReadModifyWrite.DEADLINE_MILLIS * 1_000);
        assertThat(body.attempts).isEqualTo(ReadModifyWrite.ATTEMPTS_MAX);
    }

    @Test
    void anInterruptedThreadGetsTheGiveUpAnswerWithoutPausing() {
        Conflicting body = new Conflicting(Integer.MAX_VALUE, false, 0);
        Thread.currentThread().interrupt();

        assertThat(runner.run(Claimed.RETRY, ReadModifyWriteTest::gaveUp, body)).isEqualTo("gave up after conflict 1");
        assertThat(body.attempts).isEqualTo(1);
        assertThat(pausesMicros).isEmpty();
        assertThat(Thread.currentThread().isInterrupted())
                .as("the interrupt is left for the caller")
                .isTrue();
    }

    @Test
    void anErrorThatIsNotAConflictEndsTheRunAtOnce() {
        int[] attempts = {0};

        assertThatThrownBy(() -> runner.run(Claimed.RETRY, ReadModifyWriteTest::gaveUp, () -> {
                    attempts[0]++;
                    throw new IllegalArgumentException("the condition failed");
                }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(attempts[0]).isEqualTo(1);
        assertThat(pausesMicros).isEmpty();
    }

    @Test
    void thePauseDoublesFromTheFirstAttemptUpToItsCap() {
        assertThat(ReadModifyWrite.backoffCapMicros(0)).isEqualTo(ReadModifyWrite.BACKOFF_MICROS_FIRST);
        assertThat(ReadModifyWrite.backoffCapMicros(1)).isEqualTo(2 * ReadModifyWrite.BACKOFF_MICROS_FIRST);
        assertThat(ReadModifyWrite.backoffCapMicros(4)).isEqualTo(16 * ReadModifyWrite.BACKOFF_MICROS_FIRST);
        assertThat(ReadModifyWrite.backoffCapMicros(9)).isEqualTo(ReadModifyWrite.BACKOFF_MICROS_MAX);
    }

    @Test
    void anAttemptFarPastTheCapDoesNotOverflowIntoAShorterPause() {
        for (int attempt = 9; attempt < 200; attempt++) {
            assertThat(ReadModifyWrite.backoffCapMicros(attempt))
                    .as("attempt %d", attempt)
                    .isEqualTo(ReadModifyWrite.BACKOFF_MICROS_MAX);
        }
    }
}
