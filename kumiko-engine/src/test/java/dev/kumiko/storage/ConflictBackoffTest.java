package dev.kumiko.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConflictBackoffTest {
    @Test
    void thePauseDoublesFromTheFirstAttemptUpToItsCap() {
        assertThat(ConflictBackoff.capMicros(0)).isEqualTo(ConflictBackoff.MICROS_FIRST);
        assertThat(ConflictBackoff.capMicros(1)).isEqualTo(2 * ConflictBackoff.MICROS_FIRST);
        assertThat(ConflictBackoff.capMicros(4)).isEqualTo(16 * ConflictBackoff.MICROS_FIRST);
        assertThat(ConflictBackoff.capMicros(9)).isEqualTo(ConflictBackoff.MICROS_MAX);
    }

    @Test
    void anAttemptFarPastTheCapDoesNotOverflowIntoAShorterPause() {
        for (int attempt = 9; attempt < 200; attempt++) {
            assertThat(ConflictBackoff.capMicros(attempt)).as("attempt %d", attempt).isEqualTo(ConflictBackoff.MICROS_MAX);
        }
    }
}
