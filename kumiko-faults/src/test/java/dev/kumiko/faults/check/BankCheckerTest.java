package dev.kumiko.faults.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BankCheckerTest {
    private static Map<String, Object> balances(Object... accountsAndAmounts) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < accountsAndAmounts.length; i += 2) {
            m.put((String) accountsAndAmounts[i], accountsAndAmounts[i + 1]);
        }
        return m;
    }

    private static HistoryBuilder opened() {
        return new HistoryBuilder()
                .done(0, "init", "bank", Map.of("balances", balances("a", 10L, "b", 10L)), null)
                .invoke(1, "transfer", "bank", Map.of("from", "a", "to", "b", "amount", 3L))
                .info(1)
                .invoke(2, "transfer", "bank", Map.of("from", "b", "to", "a", "amount", 30L))
                .fail(2);
    }

    private static Verdict check(HistoryBuilder h) {
        return new BankChecker().check(h.operations());
    }

    @Test
    void readsThatKeepTheTotalAreValid() {
        HistoryBuilder h = opened().done(3, "read", "bank", null, balances("a", 7L, "b", 13L));
        Verdict v = check(h);
        assertThat(v.result()).isEqualTo(Verdict.Result.VALID);
        assertThat(v.operationsChecked()).isEqualTo(4);
    }

    @Test
    void aReadWithAnotherTotalIsInvalid() {
        HistoryBuilder h = opened().done(3, "read", "bank", null, balances("a", 7L, "b", 10L));
        Verdict v = check(h);
        assertThat(v.result()).isEqualTo(Verdict.Result.INVALID);
        assertThat(v.detail()).contains("total 17, expected 20");
    }

    @Test
    void aNegativeBalanceIsInvalidEvenWithTheRightTotal() {
        HistoryBuilder h = opened().done(3, "read", "bank", null, balances("a", -1L, "b", 21L));
        assertThat(check(h).detail()).contains("account a negative: -1");
    }

    @Test
    void aMissingAccountIsInvalid() {
        HistoryBuilder h = opened().done(3, "read", "bank", null, balances("a", 20L, "b", null));
        assertThat(check(h).detail()).contains("account b missing");
    }

    @Test
    void aHistoryWithoutASuccessfulReadCheckedNothing() {
        HistoryBuilder h = opened().invoke(3, "read", "bank", null).info(3);
        assertThat(check(h).result()).isEqualTo(Verdict.Result.INVALID);
    }

    @Test
    void aHistoryWithoutInitIsRefused() {
        HistoryBuilder h = new HistoryBuilder().done(3, "read", "bank", null, balances("a", 20L));
        assertThatThrownBy(() -> check(h)).isInstanceOf(IllegalArgumentException.class);
    }
}
