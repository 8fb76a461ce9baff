package dev.kumiko.engine.admin;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.changelog.ChangeLogTrimmer;
import dev.kumiko.engine.ttl.TimeToLiveClock;
import dev.kumiko.engine.ttl.TimeToLiveSweeper;

/**
 * Operations outside the DynamoDB API that let a test run the engine's background work now
 * instead of waiting for it, and set the time TTL judges expiry by. The server exposes them under
 * {@code /kumiko/admin/}; an embedded engine through {@code Engine.admin()}.
 */
public final class AdminHooks {
    private final Catalog catalog;
    private final ChangeLogTrimmer trimmer;
    private final TimeToLiveSweeper sweeper;
    private final TimeToLiveClock ttlClock;

    public AdminHooks(Catalog catalog, ChangeLogTrimmer trimmer, TimeToLiveSweeper sweeper, TimeToLiveClock ttlClock) {
        this.catalog = catalog;
        this.trimmer = trimmer;
        this.sweeper = sweeper;
        this.ttlClock = ttlClock;
    }

    /**
     * Drops every table with its items, indexes and stream at once, without DeleteTable's DELETING
     * phase: a test's reset between tests. Requests in flight meanwhile see either side.
     */
    public void dropAllTables() {
        for (Table t : catalog.tables()) {
            catalog.drop(t.descriptor().tableName());
        }
    }

    /** Deletes every expired item of every table with TTL enabled now; returns how many. */
    public long sweepTimeToLive() {
        return sweeper.sweepNow();
    }

    /** The time TTL judges expiry by, in epoch milliseconds. */
    public long timeToLiveNowMillis() {
        return ttlClock.nowMillis();
    }

    /** Sets TTL's time to epochMillis; it advances with the engine's clock from there. */
    public void setTimeToLiveClock(long epochMillis) {
        ttlClock.set(epochMillis);
    }

    /** Moves TTL's time forward (or back, if negative) by millis. */
    public void advanceTimeToLiveClock(long millis) {
        ttlClock.advance(millis);
    }

    /** TTL's time is the engine's clock again. */
    public void resetTimeToLiveClock() {
        ttlClock.reset();
    }

    /** Trims stream records older than 24 hours now; returns how many were deleted. */
    public long trimStreams() {
        return trimmer.trimNow();
    }
}
