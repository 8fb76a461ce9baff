package dev.kumiko.faults.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class StreamsCheckerTest {
    private static final String K = "s1";

    private static Verdict check(HistoryBuilder h) {
        return new StreamsChecker().check(h.operations());
    }

    private static List<@Nullable Long> record(@Nullable Long newValue, @Nullable Long oldValue) {
        return Arrays.asList(newValue, oldValue);
    }

    /** Writes 1 and 2 acknowledged, 3 of unknown outcome, 4 failed. */
    private static HistoryBuilder writes() {
        return new HistoryBuilder()
                .done(0, "write", K, 1L, null)
                .done(1, "write", K, 2L, null)
                .invoke(2, "write", K, 3L)
                .info(2)
                .invoke(3, "write", K, 4L)
                .fail(3);
    }

    private static HistoryBuilder stream(HistoryBuilder h, List<List<@Nullable Long>> records) {
        return h.done(9, "stream", "*", "server-a", Map.of(K, records));
    }

    @Test
    void everyAcknowledgedWriteOnceInOrderIsValid() {
        Verdict v = check(stream(writes().done(5, "read", K, null, 2L), List.of(record(1L, null), record(2L, 1L))));
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void aWriteOfUnknownOutcomeMayHaveARecord() {
        Verdict v = check(stream(writes(), List.of(record(1L, null), record(2L, 1L), record(3L, 2L))));
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
    }

    @Test
    void anAcknowledgedWriteWithoutARecordIsLost() {
        Verdict v = check(stream(writes(), List.of(record(1L, null))));
        assertThat(v.detail()).contains("acknowledged write 2").contains("has no record");
    }

    @Test
    void aWriteWithTwoRecordsIsDuplicated() {
        Verdict v = check(stream(writes(), List.of(record(1L, null), record(2L, 1L), record(2L, 2L))));
        assertThat(v.detail()).contains("value 2 has two records");
    }

    @Test
    void aRecordOfAFailedWriteIsInvalid() {
        Verdict v = check(stream(writes(), List.of(record(1L, null), record(2L, 1L), record(4L, 2L))));
        assertThat(v.detail()).contains("value 4 is of a failed write");
    }

    @Test
    void aRecordOfAValueNeverWrittenIsInvalid() {
        Verdict v = check(stream(writes(), List.of(record(1L, null), record(2L, 1L), record(7L, 2L))));
        assertThat(v.detail()).contains("value 7 was never written");
    }

    @Test
    void recordsInAnotherOrderThanTheItemsChangesBreakTheChain() {
        Verdict v = check(stream(writes(), List.of(record(2L, 1L), record(1L, null))));
        assertThat(v.result()).isEqualTo(Verdict.Result.INVALID);
        assertThat(v.detail()).contains("has old image 1, the record before it new image null");
    }

    @Test
    void aRecordBeforeOneAcknowledgedEarlierIsReordered() {
        // Chained images, but 2 was written only after 1 was acknowledged.
        Verdict v = check(stream(writes(), List.of(record(2L, null), record(1L, 2L))));
        assertThat(v.detail()).contains("1 was acknowledged before 2 was written, yet its record comes after");
    }

    @Test
    void aReadOfAValueWithoutARecordIsInvalid() {
        HistoryBuilder h = new HistoryBuilder()
                .done(0, "write", K, 1L, null)
                .invoke(1, "write", K, 2L)
                .info(1)
                .done(5, "read", K, null, 2L);
        Verdict v = check(stream(h, List.of(record(1L, null))));
        assertThat(v.detail()).contains("saw 2, which has no record");
    }

    @Test
    void recordsOfAKeyNeverWrittenAreInvalid() {
        HistoryBuilder h = writes().done(
                        9,
                        "stream",
                        "*",
                        null,
                        Map.of(K, List.of(record(1L, null), record(2L, 1L)), "other", List.of(record(1L, null))));
        assertThat(check(h).detail()).contains("other: stream at").contains("a key never written");
    }

    @Test
    void writesWithoutASuccessfulStreamReadAreInvalid() {
        assertThat(check(writes()).detail()).contains("no stream read succeeded");
    }

    @Test
    void anEarlierStreamReadMayMissTheNewestRecordsButTheLastMayNot() {
        HistoryBuilder early = writes().done(9, "stream", "*", "server-a", Map.of(K, List.of(record(1L, null))))
                .done(9, "stream", "*", "server-a", Map.of(K, List.of(record(1L, null), record(2L, 1L))));
        Verdict v = check(early);
        assertThat(v.result()).as(v.detail()).isEqualTo(Verdict.Result.VALID);
        HistoryBuilder lateMissing = writes().done(
                        9, "stream", "*", "server-a", Map.of(K, List.of(record(1L, null), record(2L, 1L))))
                .done(9, "stream", "*", "server-b", Map.of(K, List.of(record(1L, null))));
        assertThat(check(lateMissing).detail()).contains("acknowledged write 2").contains("has no record");
    }
}
