package dev.kumiko.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.DateFormatter;
import java.util.Date;
import org.junit.jupiter.api.Test;

class HttpDateTest {
    private static final long SOME_SECOND_MILLIS = 1_795_000_000_000L;

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
        assertThat(next).isEqualTo(DateFormatter.format(new Date(SOME_SECOND_MILLIS + 1000))).isNotEqualTo(first);
        assertThat(HttpDate.at(SOME_SECOND_MILLIS)).isEqualTo(first);
    }
}
