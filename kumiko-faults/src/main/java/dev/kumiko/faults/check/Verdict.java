package dev.kumiko.faults.check;

/**
 * A checker's answer. {@code UNKNOWN} is an honest "could not decide": the search ran past its bound,
 * so the history was neither shown valid nor shown invalid.
 */
public record Verdict(Result result, long operationsChecked, String detail) {
    public enum Result {
        VALID,
        INVALID,
        UNKNOWN
    }

    public static Verdict valid(long operations) {
        return new Verdict(Result.VALID, operations, "");
    }

    public boolean valid() {
        return result == Result.VALID;
    }

    /** The worse of two verdicts (invalid over unknown over valid), with both counts added. */
    public Verdict and(Verdict other) {
        long operations = operationsChecked + other.operationsChecked;
        if (severity(result) >= severity(other.result)) {
            return new Verdict(result, operations, join(detail, other.result == result ? other.detail : ""));
        }
        return new Verdict(other.result, operations, other.detail);
    }

    private static int severity(Result r) {
        return switch (r) {
            case VALID -> 0;
            case UNKNOWN -> 1;
            case INVALID -> 2;
        };
    }

    private static String join(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : a + "; " + b;
    }
}
