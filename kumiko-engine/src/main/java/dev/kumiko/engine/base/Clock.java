package dev.kumiko.engine.base;

/** The engine's wall clock, replaceable so tests (and TTL) can control time. */
@FunctionalInterface
public interface Clock {
    long nowMillis();

    /**
     * The system's clock. A class, not a method reference: each lambda and method reference is
     * linked at its first run, and the first one in a JVM also loads the linking machinery, which
     * together took about a third of a cold Engine.inMemory() (docs/performance-notes.md, start).
     */
    Clock SYSTEM = new Clock() {
        @Override
        public long nowMillis() {
            return System.currentTimeMillis();
        }
    };
}
