package dev.kumiko.faults.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RegisterCheckerTest {
    private static final String K = "r1";

    private static Verdict check(HistoryBuilder h) {
        return new RegisterChecker().check(h.operations());
    }

    private static List<Long> cas(Long expected, long value) {
        return Arrays.asList(expected, value);
    }

    @Test
    void sequentialReadsWritesAndCasAreLinearizable() {
        HistoryBuilder h = new HistoryBuilder()
                .done(0, "read", K, null, null)
                .done(0, "write", K, 1L, null)
                .done(1, "read", K, null, 1L)
                .done(1, "cas", K, cas(1L, 2L), true)
                .done(0, "cas", K, cas(1L, 3L), false)
                .done(0, "read", K, null, 2L)
                .done(1, "cas", K, cas(null, 9L), false);
        Verdict v = check(h);
        assertThat(v.result()).isEqualTo(Verdict.Result.VALID);
        assertThat(v.operationsChecked()).isEqualTo(7);
    }

    @Test
    void aCasOnAnAbsentItemIsLinearizable() {
        HistoryBuilder h =
                new HistoryBuilder().done(0, "cas", K, cas(null, 4L), true).done(1, "read", K, null, 4L);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void aStaleReadIsNotLinearizable() {
        HistoryBuilder h = new HistoryBuilder()
                .done(0, "write", K, 1L, null)
                .done(1, "write", K, 2L, null)
                .done(0, "read", K, null, 1L);
        Verdict v = check(h);
        assertThat(v.result()).isEqualTo(Verdict.Result.INVALID);
        assertThat(v.detail()).contains("key r1").contains("read -> 1");
    }

    @Test
    void aLostWriteIsNotLinearizable() {
        HistoryBuilder h = new HistoryBuilder().done(0, "write", K, 1L, null).done(1, "read", K, null, null);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void aCasThatSucceededTwiceIsNotLinearizable() {
        HistoryBuilder h = new HistoryBuilder()
                .done(0, "write", K, 0L, null)
                .invoke(1, "cas", K, cas(0L, 1L))
                .invoke(2, "cas", K, cas(0L, 2L))
                .ok(1, true)
                .ok(2, true);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void aCasRefusedWhileTheValueMatchedIsNotLinearizable() {
        HistoryBuilder h = new HistoryBuilder().done(0, "write", K, 1L, null).done(1, "cas", K, cas(1L, 2L), false);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void aReadOverlappingAWriteMaySeeEitherValue() {
        for (Long seen : new Long[] {null, 1L}) {
            HistoryBuilder h = new HistoryBuilder()
                    .invoke(0, "write", K, 1L)
                    .invoke(1, "read", K, null)
                    .ok(1, seen)
                    .ok(0, null);
            assertThat(check(h).result()).as("read %s", seen).isEqualTo(Verdict.Result.VALID);
        }
    }

    @Test
    void overlappingWritesTakeOneOrderThatAllLaterReadsSee() {
        HistoryBuilder agreeing =
                overlappingWrites().done(2, "read", K, null, 1L).done(3, "read", K, null, 1L);
        assertThat(check(agreeing).result()).isEqualTo(Verdict.Result.VALID);
        HistoryBuilder flipping =
                overlappingWrites().done(2, "read", K, null, 2L).done(3, "read", K, null, 1L);
        assertThat(check(flipping).result()).isEqualTo(Verdict.Result.INVALID);
    }

    private static HistoryBuilder overlappingWrites() {
        return new HistoryBuilder()
                .invoke(0, "write", K, 1L)
                .invoke(1, "write", K, 2L)
                .ok(1, null)
                .ok(0, null);
    }

    @Test
    void aReadCannotSeeAWriteInvokedAfterItReturned() {
        HistoryBuilder h = new HistoryBuilder().done(1, "read", K, null, 5L).done(0, "write", K, 5L, null);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void aWriteOfUnknownOutcomeMayHaveHappenedLateOrNever() {
        HistoryBuilder never = timedOutWrite().done(1, "read", K, null, null).done(1, "read", K, null, null);
        assertThat(check(never).result()).isEqualTo(Verdict.Result.VALID);
        HistoryBuilder late = timedOutWrite().done(1, "read", K, null, null).done(1, "read", K, null, 1L);
        assertThat(check(late).result()).isEqualTo(Verdict.Result.VALID);
        HistoryBuilder undone = timedOutWrite().done(1, "read", K, null, 1L).done(1, "read", K, null, null);
        assertThat(check(undone).result()).isEqualTo(Verdict.Result.INVALID);
    }

    private static HistoryBuilder timedOutWrite() {
        return new HistoryBuilder().invoke(0, "write", K, 1L).info(0);
    }

    @Test
    void anInvocationNeverAnsweredIsAnUnknownOutcome() {
        HistoryBuilder h =
                new HistoryBuilder().invoke(0, "cas", K, cas(null, 3L)).done(1, "read", K, null, 3L);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void aFailedWriteDidNothing() {
        HistoryBuilder h =
                new HistoryBuilder().invoke(0, "write", K, 1L).fail(0).done(1, "read", K, null, 1L);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void keysAreCheckedApart() {
        HistoryBuilder h = new HistoryBuilder()
                .done(0, "write", "a", 1L, null)
                .done(0, "write", "b", 2L, null)
                .done(1, "read", "a", null, 1L)
                .done(1, "read", "b", null, 1L);
        Verdict v = check(h);
        assertThat(v.result()).isEqualTo(Verdict.Result.INVALID);
        assertThat(v.detail()).startsWith("key b:");
        assertThat(v.operationsChecked()).isEqualTo(4);
    }

    @Test
    void aHistoryTooBigToSearchIsUnknownAndAnsweredQuickly() {
        // 24 overlapping writes of distinct values, then a read of a value none wrote: proving that
        // invalid means trying every order, far past the bound.
        HistoryBuilder h = new HistoryBuilder();
        for (int p = 0; p < 24; p++) {
            h.invoke(p, "write", K, (long) p);
        }
        for (int p = 0; p < 24; p++) {
            h.ok(p, null);
        }
        h.done(100, "read", K, null, 999L);
        long start = System.nanoTime();
        Verdict v = new RegisterChecker(100_000, 1_000_000).check(h.operations());
        assertThat(v.result()).isEqualTo(Verdict.Result.UNKNOWN);
        assertThat(v.detail()).contains("100000 steps");
        // Not a timing assertion on the checker's speed: a hang would be caught by this bound only.
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMinutes(1));
        Verdict small = new RegisterChecker(1_000_000_000L, 1_000).check(h.operations());
        assertThat(small.result()).isEqualTo(Verdict.Result.UNKNOWN);
        assertThat(small.detail()).contains("1000 configurations");
    }

    @Test
    void allKeysShareOneBudgetOfSteps() {
        HistoryBuilder h = new HistoryBuilder();
        for (String key : new String[] {"a", "b", "c"}) {
            for (int p = 0; p < 20; p++) {
                h.invoke(p, "write", key, (long) p);
            }
            for (int p = 0; p < 20; p++) {
                h.ok(p, null);
            }
            h.done(100, "read", key, null, 999L);
        }
        Verdict v = new RegisterChecker(50_000, 1_000_000, 100_000).check(h.operations());
        assertThat(v.result()).isEqualTo(Verdict.Result.UNKNOWN);
        assertThat(v.detail()).contains("key c: not searched");
        assertThat(v.operationsChecked()).isEqualTo(63);
    }

    @Test
    void historiesOfARealRegisterUnderConcurrencyAreLinearizable() throws Exception {
        for (int seed = 0; seed < 20; seed++) {
            HistoryBuilder h = simulate(new Random(seed), 5, 60);
            Verdict v = check(h);
            assertThat(v.result()).as("seed %d: %s", seed, v.detail()).isEqualTo(Verdict.Result.VALID);
        }
    }

    @Test
    void aRealRegisterWhoseReadIsTamperedWithIsCaught() throws Exception {
        int caught = 0;
        for (int seed = 0; seed < 20; seed++) {
            HistoryBuilder h = simulate(new Random(seed), 3, 30);
            // A read that follows everything else and returns a value no write ever wrote.
            h.done(99, "read", K, null, 12345L);
            if (check(h).result() == Verdict.Result.INVALID) {
                caught++;
            }
        }
        assertThat(caught).isEqualTo(20);
    }

    /**
     * A true register (one value under a lock) driven by interleaved simulated processes: each
     * operation takes effect at a random point between its invocation and its completion events.
     */
    private static HistoryBuilder simulate(Random random, int processes, int steps) {
        HistoryBuilder h = new HistoryBuilder();
        Long value = null;
        List<Pending> pending = new ArrayList<>();
        boolean[] busy = new boolean[processes];
        for (int step = 0; step < steps || !pending.isEmpty(); step++) {
            int choice = random.nextInt(3);
            if (choice == 0 && step < steps) {
                int p = random.nextInt(processes);
                if (!busy[p]) {
                    busy[p] = true;
                    pending.add(start(h, random, p));
                }
            } else if (choice == 1 && !pending.isEmpty()) {
                Pending op = pending.get(random.nextInt(pending.size()));
                if (!op.applied) {
                    value = op.apply(value);
                }
            } else if (!pending.isEmpty()) {
                Pending op = pending.get(random.nextInt(pending.size()));
                if (op.applied) {
                    pending.remove(op);
                    busy[op.process] = false;
                    h.ok(op.process, op.result);
                }
            }
        }
        return h;
    }

    private static Pending start(HistoryBuilder h, Random random, int p) {
        long v = random.nextInt(4);
        return switch (random.nextInt(3)) {
            case 0 -> {
                h.invoke(p, "read", K, null);
                yield new Pending(p, "read", null, v);
            }
            case 1 -> {
                h.invoke(p, "write", K, v);
                yield new Pending(p, "write", null, v);
            }
            default -> {
                Long expected = random.nextInt(5) == 0 ? null : (long) random.nextInt(4);
                h.invoke(p, "cas", K, cas(expected, v));
                yield new Pending(p, "cas", expected, v);
            }
        };
    }

    private static final class Pending {
        final int process;
        final String f;
        final Long expected;
        final long value;
        boolean applied;
        Object result;

        Pending(int process, String f, Long expected, long value) {
            this.process = process;
            this.f = f;
            this.expected = expected;
            this.value = value;
        }

        Long apply(Long current) {
            applied = true;
            switch (f) {
                case "read" -> result = current;
                case "write" -> {
                    return value;
                }
                default -> {
                    boolean matches = java.util.Objects.equals(current, expected);
                    result = matches;
                    return matches ? Long.valueOf(value) : current;
                }
            }
            return current;
        }
    }
}
