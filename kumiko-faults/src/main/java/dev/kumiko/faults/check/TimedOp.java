package dev.kumiko.faults.check;

/**
 * An operation to linearize, with its invocation and completion as positions in real time;
 * {@code returned} is {@link dev.kumiko.faults.history.Operation#OPEN} for an unknown outcome, which
 * the checker may place anywhere after {@code called}, or leave out.
 */
public record TimedOp<O>(O op, long called, long returned) {
    public TimedOp {
        if (returned <= called) {
            throw new IllegalArgumentException("returned " + returned + " <= called " + called);
        }
    }

    public boolean open() {
        return returned == dev.kumiko.faults.history.Operation.OPEN;
    }
}
