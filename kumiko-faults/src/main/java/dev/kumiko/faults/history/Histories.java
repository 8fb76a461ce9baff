package dev.kumiko.faults.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pairs a history's invocations with their completions. */
public final class Histories {
    private Histories() {}

    /**
     * The operations of a history, in invocation order. A process's completion must answer its open
     * invocation (same f and key); an invocation still open at the end has an unknown outcome.
     *
     * @throws IllegalArgumentException for a history that no client could have written
     */
    public static List<Operation> operations(List<Event> events) {
        List<Event> ordered = new ArrayList<>(events);
        ordered.sort(Comparator.comparingLong(Event::index));
        Map<Integer, Event> open = new HashMap<>();
        Map<Event, Operation> done = new LinkedHashMap<>();
        List<Event> invocations = new ArrayList<>();
        long previous = -1;
        for (Event e : ordered) {
            if (e.index() == previous) {
                throw new IllegalArgumentException("two events with index " + e.index());
            }
            previous = e.index();
            Event pending = open.get(e.process());
            if (e.type() == EventType.INVOKE) {
                if (pending != null) {
                    throw new IllegalArgumentException("process " + e.process() + " invoked at " + e.index() + " with "
                            + pending.index() + " open");
                }
                open.put(e.process(), e);
                invocations.add(e);
                continue;
            }
            if (pending == null || !pending.f().equals(e.f()) || !pending.key().equals(e.key())) {
                throw new IllegalArgumentException("completion at " + e.index() + " answers no open invocation");
            }
            open.remove(e.process());
            done.put(pending, pair(pending, e));
        }
        List<Operation> operations = new ArrayList<>(invocations.size());
        for (Event invocation : invocations) {
            Operation op = done.get(invocation);
            operations.add(op != null ? op : unknown(invocation));
        }
        return operations;
    }

    private static Operation pair(Event invocation, Event completion) {
        long completeIndex = completion.type() == EventType.INFO ? Operation.OPEN : completion.index();
        return new Operation(
                invocation.process(),
                invocation.f(),
                invocation.key(),
                invocation.value(),
                completion.type(),
                completion.value(),
                invocation.index(),
                completeIndex);
    }

    private static Operation unknown(Event invocation) {
        return new Operation(
                invocation.process(),
                invocation.f(),
                invocation.key(),
                invocation.value(),
                EventType.INFO,
                null,
                invocation.index(),
                Operation.OPEN);
    }
}
