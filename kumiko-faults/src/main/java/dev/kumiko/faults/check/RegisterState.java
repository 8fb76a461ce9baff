package dev.kumiko.faults.check;

import org.jspecify.annotations.Nullable;

/** A register's value; null is "no item". */
public record RegisterState(@Nullable Long value) {
    public static final RegisterState ABSENT = new RegisterState(null);

    /** The model of a register: what {@link Linearizability} checks a register's history against. */
    public static final Model<RegisterState, RegisterOp> MODEL = (state, op) -> op.apply(state);
}
