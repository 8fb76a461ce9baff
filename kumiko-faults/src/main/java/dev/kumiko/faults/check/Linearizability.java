package dev.kumiko.faults.check;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Linearizability of one object's history: the WGL search (Wing and Gong's backtracking over the
 * history's call and return entries, with Lowe's memoization of the (operations linearized, state)
 * configurations already explored). The search walks a linked list of entries in real-time order:
 * at a call entry it tries to linearize that operation next (the model must accept it, and the
 * resulting configuration must be new), lifting its call and return out of the list; at a return
 * entry of an operation not yet linearized it backtracks, since that operation had to take effect
 * before returning. The history is linearizable once no return entry is left.
 *
 * <p>An operation of unknown outcome has a call entry and no return entry: the search may place it
 * anywhere after its call, or never, which is what "maybe applied, maybe later" means.
 *
 * <p>The search is exponential in the worst case, so it is bounded: past {@code stepsMax} entries
 * visited, or {@code configurationsMax} configurations remembered, the answer is UNKNOWN.
 */
public final class Linearizability<S, O> {
    public static final long STEPS_MAX_DEFAULT = 5_000_000;
    /** Each remembered configuration holds a bit set of the object's operations: ~100 bytes or more. */
    public static final int CONFIGURATIONS_MAX_DEFAULT = 1_000_000;

    private final Model<S, O> model;
    private final long stepsMax;
    private final int configurationsMax;

    public Linearizability(Model<S, O> model, long stepsMax, int configurationsMax) {
        if (stepsMax < 1 || configurationsMax < 1) {
            throw new IllegalArgumentException("bounds must be positive");
        }
        this.model = model;
        this.stepsMax = stepsMax;
        this.configurationsMax = configurationsMax;
    }

    public Linearizability(Model<S, O> model) {
        this(model, STEPS_MAX_DEFAULT, CONFIGURATIONS_MAX_DEFAULT);
    }

    /** Whether ops, started from state initial, have a linearization the model accepts. */
    public Verdict check(S initial, List<TimedOp<O>> ops) {
        return search(initial, ops, stepsMax).verdict();
    }

    /** A verdict and the steps its search took. */
    record Searched(Verdict verdict, long steps) {}

    /** As {@link #check}, within at most stepsLimit steps (a caller's budget over many objects). */
    Searched search(S initial, List<TimedOp<O>> ops, long stepsLimit) {
        Search<S, O> search = new Search<>(model, initial, ops);
        Verdict verdict = search.run(Math.min(stepsMax, stepsLimit), configurationsMax);
        return new Searched(verdict, search.steps);
    }

    /** A call or return entry of the linked list. */
    private static final class Entry {
        final int op;
        final boolean call;
        final long time;

        @Nullable
        Entry match;

        @Nullable
        Entry prev;

        @Nullable
        Entry next;

        Entry(int op, boolean call, long time) {
            this.op = op;
            this.call = call;
            this.time = time;
        }
    }

    private record Configuration(BitSet linearized, Object state) {}

    private record Saved<S>(Entry call, S state) {}

    private static final class Search<S, O> {
        private final Model<S, O> model;
        private final List<TimedOp<O>> ops;
        private final Entry head = new Entry(-1, true, Long.MIN_VALUE);
        private final BitSet linearized = new BitSet();
        private final Set<Configuration> seen = new HashSet<>();
        private final Deque<Saved<S>> stack = new ArrayDeque<>();
        private S state;
        /** For an invalid history: the operation that could not be linearized at the deepest point. */
        private int blockedOp = -1;

        private int deepest = -1;
        long steps;

        Search(Model<S, O> model, S initial, List<TimedOp<O>> ops) {
            this.model = model;
            this.ops = ops;
            this.state = initial;
            link(entries(ops));
        }

        private static <O> List<Entry> entries(List<TimedOp<O>> ops) {
            List<Entry> entries = new ArrayList<>(2 * ops.size());
            for (int i = 0; i < ops.size(); i++) {
                TimedOp<O> op = ops.get(i);
                Entry call = new Entry(i, true, op.called());
                entries.add(call);
                if (!op.open()) {
                    Entry ret = new Entry(i, false, op.returned());
                    call.match = ret;
                    entries.add(ret);
                }
            }
            // A return and a call at one instant: the return first, so they are not taken as concurrent.
            entries.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> e.call));
            return entries;
        }

        private void link(List<Entry> entries) {
            Entry last = head;
            for (Entry e : entries) {
                last.next = e;
                e.prev = last;
                last = e;
            }
        }

        Verdict run(long stepsMax, int configurationsMax) {
            Entry entry = head.next;
            while (entry != null) {
                if (++steps > stepsMax) {
                    return unknown("search ran past " + stepsMax + " steps");
                }
                if (entry.call) {
                    entry = tryCall(entry);
                    if (seen.size() > configurationsMax) {
                        return unknown("search remembered more than " + configurationsMax + " configurations");
                    }
                    continue;
                }
                noteBlocked(entry);
                Saved<S> saved = stack.poll();
                if (saved == null) {
                    return new Verdict(Verdict.Result.INVALID, ops.size(), describeBlocked());
                }
                state = saved.state();
                linearized.clear(saved.call().op);
                unlift(saved.call());
                entry = saved.call().next;
            }
            return Verdict.valid(ops.size());
        }

        /** Linearizes the call's operation next if the model allows and it is new; the next entry to visit. */
        private @Nullable Entry tryCall(Entry call) {
            S after = model.step(state, ops.get(call.op).op());
            if (after != null) {
                BitSet with = (BitSet) linearized.clone();
                with.set(call.op);
                if (seen.add(new Configuration(with, after))) {
                    stack.push(new Saved<>(call, state));
                    state = after;
                    linearized.set(call.op);
                    lift(call);
                    return head.next;
                }
            }
            return call.next;
        }

        private void noteBlocked(Entry ret) {
            int depth = linearized.cardinality();
            if (depth > deepest) {
                deepest = depth;
                blockedOp = ret.op;
            }
        }

        private String describeBlocked() {
            return "no linearization: after " + deepest + " operations, "
                    + ops.get(blockedOp).op()
                    + " (called at " + ops.get(blockedOp).called() + ", returned at "
                    + ops.get(blockedOp).returned() + ") cannot take effect";
        }

        private Verdict unknown(String why) {
            return new Verdict(Verdict.Result.UNKNOWN, ops.size(), why);
        }

        private static void lift(Entry call) {
            remove(call);
            if (call.match != null) {
                remove(call.match);
            }
        }

        private static void remove(Entry e) {
            if (e.prev != null) {
                e.prev.next = e.next;
            }
            if (e.next != null) {
                e.next.prev = e.prev;
            }
        }

        /** Undoes lift: the reverse order of the removals restores both neighbours exactly. */
        private static void unlift(Entry call) {
            if (call.match != null) {
                restore(call.match);
            }
            restore(call);
        }

        private static void restore(Entry e) {
            if (e.prev != null) {
                e.prev.next = e;
            }
            if (e.next != null) {
                e.next.prev = e;
            }
        }
    }
}
