package dev.kumiko.faults.check;

import dev.kumiko.faults.history.Event;
import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Histories;
import dev.kumiko.faults.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Writes a history event by event, in the order the calls are made, as a client would record it. */
final class HistoryBuilder {
    private final List<Event> events = new ArrayList<>();
    private final Map<Integer, Event> open = new HashMap<>();

    HistoryBuilder invoke(int process, String f, String key, @Nullable Object value) {
        Event e = new Event(events.size(), events.size(), process, EventType.INVOKE, f, key, value);
        events.add(e);
        open.put(process, e);
        return this;
    }

    HistoryBuilder ok(int process, @Nullable Object value) {
        return complete(process, EventType.OK, value);
    }

    HistoryBuilder fail(int process) {
        return complete(process, EventType.FAIL, null);
    }

    HistoryBuilder info(int process) {
        return complete(process, EventType.INFO, null);
    }

    /** An operation invoked and completed before the next one starts. */
    HistoryBuilder done(int process, String f, String key, @Nullable Object argument, @Nullable Object result) {
        return invoke(process, f, key, argument).ok(process, result);
    }

    private HistoryBuilder complete(int process, EventType type, @Nullable Object value) {
        Event invocation = open.remove(process);
        if (invocation == null) {
            throw new IllegalStateException("process " + process + " has nothing open");
        }
        events.add(new Event(events.size(), events.size(), process, type, invocation.f(), invocation.key(), value));
        return this;
    }

    List<Event> events() {
        return events;
    }

    List<Operation> operations() {
        return Histories.operations(events);
    }
}
