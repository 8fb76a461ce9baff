package dev.kumiko.faults.check;

import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Judges a register workload's history: each key is its own register, checked alone (a history is
 * linearizable exactly when each object's part is), every register starting absent.
 *
 * <p>History values: a read's completion holds the value read (null: no item); a write's invocation
 * the value written; a cas's invocation {@code [expected, new]} (expected null: the item must not
 * exist) and its completion {@code true} (applied) or {@code false} (ConditionalCheckFailed). A
 * failed operation did nothing and is left out, as is a read of unknown outcome (it changed
 * nothing); a write or cas of unknown outcome may have happened.
 */
public final class RegisterChecker {
    /** All keys' searches together: about a minute of one core at worst. */
    public static final long TOTAL_STEPS_MAX_DEFAULT = 200_000_000;

    private final Linearizability<RegisterState, RegisterOp> search;
    private final long totalStepsMax;

    /** Per key at most stepsMax steps and configurationsMax configurations, all keys totalStepsMax steps. */
    public RegisterChecker(long stepsMax, int configurationsMax, long totalStepsMax) {
        search = new Linearizability<>(RegisterState.MODEL, stepsMax, configurationsMax);
        this.totalStepsMax = totalStepsMax;
    }

    public RegisterChecker(long stepsMax, int configurationsMax) {
        this(stepsMax, configurationsMax, Long.MAX_VALUE);
    }

    public RegisterChecker() {
        this(Linearizability.STEPS_MAX_DEFAULT, Linearizability.CONFIGURATIONS_MAX_DEFAULT, TOTAL_STEPS_MAX_DEFAULT);
    }

    public Verdict check(List<Operation> operations) {
        Map<String, List<TimedOp<RegisterOp>>> byKey = new TreeMap<>();
        for (Operation op : operations) {
            TimedOp<RegisterOp> timed = timed(op);
            if (timed != null) {
                byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(timed);
            }
        }
        Verdict verdict = Verdict.valid(0);
        long stepsLeft = totalStepsMax;
        for (Map.Entry<String, List<TimedOp<RegisterOp>>> e : byKey.entrySet()) {
            if (stepsLeft <= 0) {
                verdict = verdict.and(new Verdict(
                        Verdict.Result.UNKNOWN,
                        e.getValue().size(),
                        "key " + e.getKey() + ": not searched, all keys' " + totalStepsMax + " steps spent"));
                continue;
            }
            Linearizability.Searched searched = search.search(RegisterState.ABSENT, e.getValue(), stepsLeft);
            stepsLeft -= searched.steps();
            Verdict one = searched.verdict();
            if (!one.valid()) {
                one = new Verdict(one.result(), one.operationsChecked(), "key " + e.getKey() + ": " + one.detail());
            }
            verdict = verdict.and(one);
        }
        return verdict;
    }

    static @Nullable TimedOp<RegisterOp> timed(Operation op) {
        if (op.outcome() == EventType.FAIL
                || (op.outcome() == EventType.INFO && op.f().equals("read"))) {
            return null;
        }
        return new TimedOp<>(registerOp(op), op.invokeIndex(), op.completeIndex());
    }

    private static RegisterOp registerOp(Operation op) {
        return switch (op.f()) {
            case "read" -> RegisterOp.read(number(op.result()));
            case "write" -> RegisterOp.write(required(number(op.argument()), op));
            case "cas" -> cas(op);
            default -> throw new IllegalArgumentException("not a register operation: " + op.f());
        };
    }

    private static RegisterOp cas(Operation op) {
        if (!(op.argument() instanceof List<?> pair) || pair.size() != 2) {
            throw new IllegalArgumentException("a cas's argument is [expected, new]: " + op);
        }
        Long expected = number(pair.get(0));
        long value = required(number(pair.get(1)), op);
        // Unknown outcome: if it happened at all, it was applied (a refusal changes nothing).
        boolean applied = op.outcome() == EventType.INFO || Boolean.TRUE.equals(op.result());
        return applied ? RegisterOp.cas(expected, value) : RegisterOp.casRefused(expected, value);
    }

    private static @Nullable Long number(@Nullable Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Long n) {
            return n;
        }
        throw new IllegalArgumentException("a register holds a number or null: " + value);
    }

    private static long required(@Nullable Long value, Operation op) {
        if (value == null) {
            throw new IllegalArgumentException("no value in " + op);
        }
        return value;
    }
}
