package dev.kumiko.engine.base;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * The threads of one kind of background work (TTL sweeps, change-log trims, backup jobs, the
 * catalog watch, ...): daemons, so that a JVM that embeds Kumiko can exit without closing it, and
 * named for their work, so that a thread dump says what each one does.
 *
 * <p>A class, not a lambda at each executor: opening an engine starts five executors, and a lambda
 * is spun as a class of its own at its first use, about half a millisecond each in a fresh JVM.
 */
public record DaemonThreads(String name) implements ThreadFactory {
    public DaemonThreads {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a thread needs a name");
        }
    }

    @Override
    public Thread newThread(Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        return t;
    }
}
