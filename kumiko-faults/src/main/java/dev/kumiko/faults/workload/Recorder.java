package dev.kumiko.faults.workload;

import dev.kumiko.faults.history.Event;
import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.JsonLines;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Writes a history as it happens. Every event takes its index under one lock and is written in that
 * order, so the file's order is real time: an invocation is recorded before its request is sent, a
 * completion after its answer came back.
 */
public final class Recorder implements AutoCloseable {
    /** Bounds a run's history; past it the run stops recording and says so (see {@link #full()}). */
    public static final long EVENTS_MAX = 5_000_000;

    private final BufferedWriter out;
    private final long startNanos = System.nanoTime();
    private long next;
    private final Map<EventType, Long> counts = new EnumMap<>(EventType.class);
    private final Map<String, Long> errors = new TreeMap<>();

    public Recorder(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    public synchronized void record(int process, EventType type, String f, String key, @Nullable Object value) {
        if (next >= EVENTS_MAX) {
            throw new IllegalStateException("history holds " + EVENTS_MAX + " events: run shorter");
        }
        Event e = new Event(next++, System.nanoTime() - startNanos, process, type, f, key, value);
        counts.merge(type, 1L, Long::sum);
        try {
            out.write(JsonLines.line(e));
            out.write('\n');
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    public synchronized boolean full() {
        return next >= EVENTS_MAX - 2;
    }

    /** How many events of this type were recorded. */
    public synchronized long count(EventType type) {
        return counts.getOrDefault(type, 0L);
    }

    /** Counts an error by name, for the run's summary. */
    public synchronized void noteError(String name) {
        errors.merge(name, 1L, Long::sum);
    }

    public synchronized Map<String, Long> errors() {
        return new TreeMap<>(errors);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
