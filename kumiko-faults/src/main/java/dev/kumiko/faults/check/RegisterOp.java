package dev.kumiko.faults.check;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An operation on one register whose value is a number or absent (null: no item). A read returned
 * {@code value}; a write set it; a compare-and-set replaced {@code expected} with {@code value}, or,
 * when {@code applied} is false, found the register not holding {@code expected} (a conditional
 * write that failed its condition is an answer too: it saw another value).
 */
public record RegisterOp(
        Kind kind, @Nullable Long expected, @Nullable Long value, boolean applied) {
    public enum Kind {
        READ,
        WRITE,
        CAS
    }

    public static RegisterOp read(@Nullable Long value) {
        return new RegisterOp(Kind.READ, null, value, true);
    }

    public static RegisterOp write(long value) {
        return new RegisterOp(Kind.WRITE, null, value, true);
    }

    public static RegisterOp cas(@Nullable Long expected, long value) {
        return new RegisterOp(Kind.CAS, expected, value, true);
    }

    public static RegisterOp casRefused(@Nullable Long expected, long value) {
        return new RegisterOp(Kind.CAS, expected, value, false);
    }

    /** The register after this operation from {@code current}, or null when it cannot happen there. */
    @Nullable
    RegisterState apply(RegisterState current) {
        return switch (kind) {
            case READ -> Objects.equals(current.value(), value) ? current : null;
            case WRITE -> new RegisterState(value);
            case CAS -> {
                boolean matches = Objects.equals(current.value(), expected);
                if (!applied) {
                    yield matches ? null : current;
                }
                yield matches ? new RegisterState(value) : null;
            }
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case READ -> "read -> " + value;
            case WRITE -> "write " + value;
            case CAS -> "cas " + expected + " -> " + value + (applied ? "" : " (condition failed)");
        };
    }
}
