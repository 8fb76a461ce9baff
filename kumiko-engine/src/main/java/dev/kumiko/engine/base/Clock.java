package dev.kumiko.engine.base;

/** The engine's wall clock, replaceable so tests (and TTL) can control time. */
@FunctionalInterface
public interface Clock {
    long nowMillis();

    Clock SYSTEM = System::currentTimeMillis;
}
