package dev.kumiko.server.metrics;

import dev.kumiko.model.AttributeValue;

/**
 * The recent load on one partition key: requests and units decayed with a one-minute time
 * constant (so "the last minutes" weigh most), and the busiest second seen lately, which is what
 * DynamoDB's per-partition limits act on.
 */
public final class KeyHeat {
    static final double DECAY_MILLIS = 60_000;
    /** A peak second older than this no longer counts. */
    static final long PEAK_WINDOW_MILLIS = 5 * 60_000;
    /** Decay is applied in steps this long, so that a busy key pays for Math.exp a few times a second. */
    static final long DECAY_STEP_MILLIS = 250;

    final String tableName;
    final String indexName;
    final AttributeValue partitionKey;
    private long updatedMillis;
    private double requests;
    private double readUnits;
    private double writeUnits;
    private long second;
    private double readThisSecond;
    private double writeThisSecond;
    private double readPeak;
    private double writePeak;
    private long readPeakMillis;
    private long writePeakMillis;

    KeyHeat(String tableName, String indexName, AttributeValue partitionKey, long nowMillis) {
        this.tableName = tableName;
        this.indexName = indexName;
        this.partitionKey = partitionKey;
        this.updatedMillis = nowMillis;
        this.second = nowMillis / 1000;
    }

    synchronized void add(boolean read, double units, long nowMillis) {
        decayTo(nowMillis);
        requests += 1;
        if (read) {
            readUnits += units;
            readThisSecond += units;
        } else {
            writeUnits += units;
            writeThisSecond += units;
        }
        notePeaks(nowMillis);
    }

    /** Decayed request count, the order in which keys are kept and shown. */
    synchronized double score(long nowMillis) {
        decayTo(nowMillis);
        return requests + readUnits + writeUnits;
    }

    public record View(
            String tableName,
            String indexName,
            AttributeValue partitionKey,
            double requests,
            double readUnits,
            double writeUnits,
            double readPeakPerSecond,
            double writePeakPerSecond) {}

    synchronized View view(long nowMillis) {
        decayTo(nowMillis);
        notePeaks(nowMillis);
        return new View(
                tableName,
                indexName,
                partitionKey,
                requests,
                readUnits,
                writeUnits,
                nowMillis - readPeakMillis <= PEAK_WINDOW_MILLIS ? readPeak : 0,
                nowMillis - writePeakMillis <= PEAK_WINDOW_MILLIS ? writePeak : 0);
    }

    private void decayTo(long nowMillis) {
        long elapsed = nowMillis - updatedMillis;
        if (elapsed >= DECAY_STEP_MILLIS) {
            double f = Math.exp(-elapsed / DECAY_MILLIS);
            requests *= f;
            readUnits *= f;
            writeUnits *= f;
            updatedMillis = nowMillis;
        }
        long nowSecond = nowMillis / 1000;
        if (nowSecond != second) {
            second = nowSecond;
            readThisSecond = 0;
            writeThisSecond = 0;
        }
    }

    private void notePeaks(long nowMillis) {
        if (readThisSecond >= readPeak || nowMillis - readPeakMillis > PEAK_WINDOW_MILLIS) {
            readPeak = readThisSecond;
            readPeakMillis = nowMillis;
        }
        if (writeThisSecond >= writePeak || nowMillis - writePeakMillis > PEAK_WINDOW_MILLIS) {
            writePeak = writeThisSecond;
            writePeakMillis = nowMillis;
        }
    }
}
