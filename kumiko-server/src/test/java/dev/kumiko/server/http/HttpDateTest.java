package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.DateFormatter;
import java.util.Date;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HttpDateTest {
    private static final long SOME_SECOND_MILLIS = 1_795_000_000_000L;
    /** Instants compared with Netty's calendar-based formatter; the seed keeps a failure repeatable. */
    private static final int RANDOM_INSTANTS = 20_000;

    private static final long SEED = 20261125L;

    @Test
    void isTheFormattedWholeSecond() {
        String expected = DateFormatter.format(new Date(SOME_SECOND_MILLIS));
        assertThat(HttpDate.at(SOME_SECOND_MILLIS)).isEqualTo(expected);
        assertThat(HttpDate.at(SOME_SECOND_MILLIS + 999)).isEqualTo(expected);
    }

    @Test
    void followsTheClockToTheNextSecondAndBack() {
        String first = HttpDate.at(SOME_SECOND_MILLIS);
        String next = HttpDate.at(SOME_SECOND_MILLIS + 1000);
        assertThat(next)
                .isEqualTo(DateFormatter.format(new Date(SOME_SECOND_MILLIS + 1000)))
                .isNotEqualTo(first);
        assertThat(HttpDate.at(SOME_SECOND_MILLIS)).isEqualTo(first);
    }

    @Test
    void formatsKnownDates() {
        assertThat(HttpDate.imfFixdate(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        assertThat(HttpDate.imfFixdate(784_111_777)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT"); // RFC 9110's example
        assertThat(HttpDate.imfFixdate(951_782_400)).isEqualTo("Tue, 29 Feb 2000 00:00:00 GMT");
        assertThat(HttpDate.imfFixdate(4_107_542_399L)).isEqualTo("Sun, 28 Feb 2100 23:59:59 GMT");
        assertThat(HttpDate.imfFixdate(4_107_542_400L))
                .isEqualTo("Mon, 01 Mar 2100 00:00:00 GMT"); // 2100 has no leap day
        assertThat(HttpDate.imfFixdate(HttpDate.EPOCH_SECOND_MAX)).isEqualTo("Fri, 31 Dec 9999 23:59:59 GMT");
    }

    @Test
    void agreesWithNettysCalendarFormatter() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < RANDOM_INSTANTS; i++) {
            long second = random.nextLong(HttpDate.EPOCH_SECOND_MAX + 1);
            assertThat(HttpDate.imfFixdate(second))
                    .as("epoch second %d", second)
                    .isEqualTo(DateFormatter.format(new Date(second * 1000)));
        }
    }

    @Test
    void refusesSecondsOutsideFourDigitYears() {
        assertThatThrownBy(() -> HttpDate.imfFixdate(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpDate.imfFixdate(HttpDate.EPOCH_SECOND_MAX + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
