package dev.kumiko.server.http;

/**
 * The Date header's value (RFC 9110's IMF-fixdate, whole seconds, GMT), formatted once per second
 * rather than once per response: every response carries it.
 *
 * <p>Formatted here from the epoch second by arithmetic, not with a calendar or a date formatter:
 * those load the JDK's locale and calendar data on a server's first answer (about 6 % of a start's
 * CPU on the main threads, measured with async-profiler), for a format that has no locale.
 */
final class HttpDate {
    /** 9999-12-31T23:59:59Z: IMF-fixdate has a four-digit year. */
    static final long EPOCH_SECOND_MAX = 253_402_300_799L;

    private static final String[] DAY_NAMES = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    private static final String[] MONTH_NAMES = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };
    private static final long SECONDS_PER_DAY = 86_400;
    /** 1970-01-01 was a Thursday: day 0 is weekday 4 counted from Sunday. */
    private static final int EPOCH_WEEKDAY = 4;

    private record Formatted(long second, String text) {}

    private static volatile Formatted last = new Formatted(-1, "");

    private HttpDate() {}

    static String now() {
        return at(System.currentTimeMillis());
    }

    static String at(long nowMillis) {
        long second = Math.floorDiv(nowMillis, 1000L);
        Formatted f = last;
        if (f.second() != second) {
            // Racing threads may each format the same second; any of their results is right.
            f = new Formatted(second, imfFixdate(second));
            last = f;
        }
        return f.text();
    }

    /** "Sun, 06 Nov 1994 08:49:37 GMT" for an epoch second from 1970 to the year 9999. */
    static String imfFixdate(long epochSecond) {
        if (epochSecond < 0 || epochSecond > EPOCH_SECOND_MAX) {
            throw new IllegalArgumentException("epoch second out of IMF-fixdate's range: " + epochSecond);
        }
        long days = epochSecond / SECONDS_PER_DAY;
        int secondOfDay = (int) (epochSecond % SECONDS_PER_DAY);
        int[] ymd = civilDate(days);
        StringBuilder b = new StringBuilder(29);
        b.append(DAY_NAMES[(int) ((days + EPOCH_WEEKDAY) % 7)]).append(", ");
        twoDigits(b, ymd[2])
                .append(' ')
                .append(MONTH_NAMES[ymd[1] - 1])
                .append(' ')
                .append(ymd[0])
                .append(' ');
        twoDigits(b, secondOfDay / 3600).append(':');
        twoDigits(b, secondOfDay / 60 % 60).append(':');
        twoDigits(b, secondOfDay % 60).append(" GMT");
        return b.toString();
    }

    /**
     * Year, month (1-12) and day (1-31) of a day counted from 1970-01-01 (days ≥ 0), in the
     * proleptic Gregorian calendar: the year is shifted to start in March, so that the leap day is
     * the last day of a shifted year, and counted in 400-year eras of 146,097 days.
     */
    static int[] civilDate(long days) {
        long z = days + 719_468; // days from 0000-03-01
        long era = z / 146_097;
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153; // 0 = March
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        return new int[] {year, month, day};
    }

    private static StringBuilder twoDigits(StringBuilder b, int value) {
        assert value >= 0 && value < 100;
        return b.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
