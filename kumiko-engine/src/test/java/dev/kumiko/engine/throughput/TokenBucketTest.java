package dev.kumiko.engine.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bucket arithmetic, in thousandths of a unit, on a clock the test moves by hand. */
class TokenBucketTest {
    private static final long T0 = 1_000_000;

    @Test
    void startsFullWithThreeHundredSecondsOfCapacityAndAdmitsUntilEmpty() {
        TokenBucket b = new TokenBucket(5, ProvisionedBuckets.BURST_SECONDS, T0);
        assertThat(b.balanceMilliUnits(T0)).isEqualTo(1_500_000);
        for (int i = 0; i < 1500; i++) {
            assertThat(b.admits(T0)).isTrue();
            b.charge(1000, T0);
        }
        assertThat(b.balanceMilliUnits(T0)).isZero();
        assertThat(b.admits(T0)).as("an empty bucket refuses").isFalse();
    }

    @Test
    void refillsAtTheRatePerMillisecondAndNeverPastCapacity() {
        TokenBucket b = new TokenBucket(5, 300, T0);
        b.charge(1_500_000, T0);
        assertThat(b.balanceMilliUnits(T0 + 1)).isEqualTo(5); // 5 units/s = 5 milli-units/ms
        assertThat(b.balanceMilliUnits(T0 + 1000)).isEqualTo(5_000);
        assertThat(b.balanceMilliUnits(T0 + 300_000)).isEqualTo(1_500_000);
        assertThat(b.balanceMilliUnits(T0 + 10_000_000)).isEqualTo(1_500_000);
        assertThat(b.balanceMilliUnits(Long.MAX_VALUE))
                .as("a huge jump saturates")
                .isEqualTo(1_500_000);
    }

    @Test
    void aRequestAdmittedWithLittleLeftRunsIntoDebtThatTheRefillPaysBack() {
        TokenBucket b = new TokenBucket(1, 300, T0);
        b.charge(299_500, T0);
        assertThat(b.admits(T0)).isTrue(); // half a unit left
        b.charge(5_000, T0); // a 5 KB write
        assertThat(b.balanceMilliUnits(T0)).isEqualTo(-4_500);
        assertThat(b.admits(T0 + 4_500)).as("debt paid back to exactly zero").isFalse();
        assertThat(b.admits(T0 + 4_501)).isTrue();
    }

    @Test
    void halfUnitsAddUpExactly() {
        TokenBucket b = new TokenBucket(1, 1, T0);
        b.charge(500, T0);
        assertThat(b.admits(T0)).isTrue();
        b.charge(500, T0);
        assertThat(b.admits(T0)).isFalse();
    }

    @Test
    void aClockThatStepsBackAddsNothing() {
        TokenBucket b = new TokenBucket(10, 300, T0);
        b.charge(3_000_000, T0);
        assertThat(b.balanceMilliUnits(T0 - 60_000)).isZero();
        assertThat(b.balanceMilliUnits(T0 + 100)).isEqualTo(1_000);
    }

    @Test
    void aNewRateAppliesFromNowAndCapsTheBalanceAtTheNewCapacity() {
        TokenBucket b = new TokenBucket(10, 300, T0);
        b.charge(3_000_000, T0);
        b.setRate(100, T0 + 1000); // the first second refilled at 10/s
        assertThat(b.balanceMilliUnits(T0 + 1000)).isEqualTo(10_000);
        assertThat(b.balanceMilliUnits(T0 + 2000)).isEqualTo(110_000);
        assertThat(b.balanceMilliUnits(T0 + 1_000_000)).isEqualTo(30_000_000);
        b.setRate(1, T0 + 1_000_000);
        assertThat(b.balanceMilliUnits(T0 + 1_000_000))
                .as("cut to 1 unit/s × 300 s")
                .isEqualTo(300_000);
    }

    @Test
    void keyBucketsHoldOneSecondAndForgetTheLeastRecentlyUsedKeys() {
        KeyBuckets keys = new KeyBuckets(2);
        TokenBucket a = keys.bucket(new byte[] {1}, false, T0);
        assertThat(a.balanceMilliUnits(T0)).isEqualTo(1_000_000);
        assertThat(keys.bucket(new byte[] {2}, true, T0).balanceMilliUnits(T0)).isEqualTo(3_000_000);
        a.charge(1_000_000, T0);
        assertThat(keys.bucket(new byte[] {1}, false, T0)).isSameAs(a);
        keys.bucket(new byte[] {3}, false, T0); // evicts {2}, the least recently used
        assertThat(keys.size()).isEqualTo(2);
        assertThat(keys.bucket(new byte[] {1}, false, T0)).isSameAs(a);
    }
}
