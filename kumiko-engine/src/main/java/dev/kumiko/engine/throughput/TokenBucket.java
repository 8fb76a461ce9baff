package dev.kumiko.engine.throughput;

/**
 * A token bucket with debt, counted in thousandths of a capacity unit so that half units
 * (eventually consistent reads) add up exactly. It refills at {@code unitsPerSecond} up to
 * {@code burstSeconds} worth of units and starts full.
 *
 * <p>A request's cost is known only after it ran, so the bucket admits a request while its balance
 * is positive and is then charged the actual units, which may take it below zero; later requests
 * wait until the refill has paid that debt back. Thread-safe.
 */
final class TokenBucket {
    static final long MILLI_UNITS_PER_UNIT = 1000;

    private long unitsPerSecond;
    private final long burstSeconds;
    private long balanceMilliUnits;
    private long refilledAtMillis;

    TokenBucket(long unitsPerSecond, long burstSeconds, long nowMillis) {
        assert unitsPerSecond > 0 && burstSeconds > 0;
        this.unitsPerSecond = unitsPerSecond;
        this.burstSeconds = burstSeconds;
        this.balanceMilliUnits = capacityMilliUnits();
        this.refilledAtMillis = nowMillis;
    }

    /** Whether a request may start now: the balance, after refilling, is above zero. */
    synchronized boolean admits(long nowMillis) {
        refill(nowMillis);
        return balanceMilliUnits > 0;
    }

    /** Takes what a request consumed; the balance may go negative (debt). */
    synchronized void charge(long milliUnits, long nowMillis) {
        assert milliUnits >= 0 : milliUnits;
        refill(nowMillis);
        balanceMilliUnits -= milliUnits;
    }

    /**
     * Changes the refill rate (UpdateTable). Time until now is refilled at the old rate; the
     * balance keeps what it had, cut to the new capacity.
     */
    synchronized void setRate(long newUnitsPerSecond, long nowMillis) {
        assert newUnitsPerSecond > 0;
        if (newUnitsPerSecond == unitsPerSecond) {
            return;
        }
        refill(nowMillis);
        unitsPerSecond = newUnitsPerSecond;
        balanceMilliUnits = Math.min(balanceMilliUnits, capacityMilliUnits());
    }

    synchronized long unitsPerSecond() {
        return unitsPerSecond;
    }

    /** The balance in thousandths of a unit after refilling to nowMillis; for tests and asserts. */
    synchronized long balanceMilliUnits(long nowMillis) {
        refill(nowMillis);
        return balanceMilliUnits;
    }

    private long capacityMilliUnits() {
        return unitsPerSecond * burstSeconds * MILLI_UNITS_PER_UNIT;
    }

    /** Adds unitsPerSecond per second since the last refill (one milli-unit per unit per ms). */
    private void refill(long nowMillis) {
        long elapsedMillis = nowMillis - refilledAtMillis;
        if (elapsedMillis <= 0) {
            return; // a clock that steps back adds nothing and does not move the mark back
        }
        refilledAtMillis = nowMillis;
        long capacity = capacityMilliUnits();
        if (balanceMilliUnits >= capacity) {
            return;
        }
        long room = capacity - balanceMilliUnits;
        // Saturate instead of overflowing on a long pause: the room is all it can take.
        boolean fills = elapsedMillis >= room / unitsPerSecond + 1;
        balanceMilliUnits = fills ? capacity : balanceMilliUnits + unitsPerSecond * elapsedMillis;
        assert balanceMilliUnits <= capacity;
    }
}
