package dev.kumiko.engine.ttl;

import dev.kumiko.engine.base.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The time TTL expiry is judged by: the engine's clock plus an offset a test may set (the admin
 * hooks), so a test can expire items without waiting and without moving the rest of the engine
 * (stream record times, iterator expiry, transaction tokens keep the engine's clock).
 */
public final class TimeToLiveClock implements Clock {
    private final Clock base;
    private final AtomicLong offsetMillis = new AtomicLong();

    public TimeToLiveClock(Clock base) {
        this.base = base;
    }

    @Override
    public long nowMillis() {
        return base.nowMillis() + offsetMillis.get();
    }

    /** From now on TTL's time reads epochMillis, and advances with the engine's clock. */
    public void set(long epochMillis) {
        offsetMillis.set(epochMillis - base.nowMillis());
    }

    public void advance(long millis) {
        offsetMillis.addAndGet(millis);
    }

    /** Back to the engine's clock. */
    public void reset() {
        offsetMillis.set(0);
    }
}
