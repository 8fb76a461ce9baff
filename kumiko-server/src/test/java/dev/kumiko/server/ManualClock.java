package dev.kumiko.server;

import dev.kumiko.engine.base.Clock;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that stands still until the test moves it, so nothing depends on wall time. */
public final class ManualClock implements Clock {
    private final AtomicLong nowMillis;

    public ManualClock(long startMillis) {
        this.nowMillis = new AtomicLong(startMillis);
    }

    @Override
    public long nowMillis() {
        return nowMillis.get();
    }

    public void advanceSeconds(long seconds) {
        nowMillis.addAndGet(seconds * 1000);
    }

    public void advanceMillis(long millis) {
        nowMillis.addAndGet(millis);
    }
}
