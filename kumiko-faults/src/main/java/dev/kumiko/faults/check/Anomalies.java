package dev.kumiko.faults.check;

import java.util.ArrayList;
import java.util.List;

/** Anomalies a checker found, keeping the first few in full and counting the rest. */
final class Anomalies {
    private static final int KEPT_MAX = 10;

    private final List<String> kept = new ArrayList<>();
    private long count;

    void add(String anomaly) {
        count++;
        if (kept.size() < KEPT_MAX) {
            kept.add(anomaly);
        }
    }

    Verdict verdict(long operationsChecked) {
        if (count == 0) {
            return Verdict.valid(operationsChecked);
        }
        String more = count > kept.size() ? "; and " + (count - kept.size()) + " more" : "";
        return new Verdict(
                Verdict.Result.INVALID, operationsChecked, count + " anomalies: " + String.join("; ", kept) + more);
    }
}
