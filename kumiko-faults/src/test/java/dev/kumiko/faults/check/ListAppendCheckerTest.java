package dev.kumiko.faults.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ListAppendCheckerTest {
    private static final String K = "l1";

    private static Verdict check(HistoryBuilder h) {
        return new ListAppendChecker().check(h.operations());
    }

    private static HistoryBuilder appends() {
        return new HistoryBuilder()
                .done(0, "append", K, 1L, null)
                .done(1, "append", K, 2L, null)
                .invoke(2, "append", K, 3L)
                .info(2)
                .invoke(3, "append", K, 4L)
                .fail(3);
    }

    @Test
    void readsThatGrowInOneOrderAreValid() {
        HistoryBuilder h = new HistoryBuilder()
                .done(5, "read", K, null, null)
                .done(0, "append", K, 1L, null)
                .done(5, "read", K, null, List.of(1L))
                .invoke(1, "append", K, 2L)
                .invoke(6, "read", K, null)
                .ok(6, List.of(1L))
                .ok(1, null)
                .invoke(2, "append", K, 3L)
                .info(2)
                .done(5, "read", K, null, List.of(1L, 2L, 3L));
        Verdict v = check(h);
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void anAppendOfUnknownOutcomeMayBeMissing() {
        HistoryBuilder h = appends().done(5, "read", K, null, List.of(1L, 2L));
        assertThat(check(h).result()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void aLostAcknowledgedAppendIsInvalid() {
        HistoryBuilder h = appends().done(5, "read", K, null, List.of(1L, 3L));
        assertThat(check(h).detail()).contains("acknowledged append 2").contains("lost");
    }

    @Test
    void aDuplicatedAppendIsInvalid() {
        HistoryBuilder h = appends().done(5, "read", K, null, List.of(1L, 2L, 2L));
        assertThat(check(h).detail()).contains("holds 2 twice");
    }

    @Test
    void reordersAreInvalid() {
        // 1 was acknowledged before 2 was invoked, yet 2 comes first; and the two reads disagree.
        HistoryBuilder h =
                appends().done(5, "read", K, null, List.of(2L, 1L)).done(5, "read", K, null, List.of(1L, 2L));
        Verdict v = check(h);
        assertThat(v.detail()).contains("is not a prefix of").contains("was acknowledged before");
    }

    @Test
    void aReadThatGoesBackInTimeIsInvalid() {
        HistoryBuilder h = new HistoryBuilder()
                .invoke(0, "append", K, 1L)
                .done(5, "read", K, null, List.of(1L))
                .done(6, "read", K, null, List.of())
                .ok(0, null);
        assertThat(check(h).detail()).contains("stale read");
    }

    @Test
    void elementsNoAppendWroteOrOfFailedAppendsAreInvalid() {
        HistoryBuilder phantom = appends().done(5, "read", K, null, List.of(1L, 2L, 77L));
        assertThat(check(phantom).detail()).contains("77, never appended");
        HistoryBuilder failed = appends().done(5, "read", K, null, List.of(1L, 2L, 4L));
        assertThat(check(failed).detail()).contains("4 of a failed append");
    }
}
