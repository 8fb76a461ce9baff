package dev.kumiko.faults.check;

import org.jspecify.annotations.Nullable;

/**
 * A sequential specification: the state after an operation, or null when the operation (with the
 * result it returned) cannot happen in that state. States must have value equality: the checker
 * remembers the (operations done, state) pairs it has searched.
 */
public interface Model<S, O> {
    @Nullable
    S step(S state, O op);
}
