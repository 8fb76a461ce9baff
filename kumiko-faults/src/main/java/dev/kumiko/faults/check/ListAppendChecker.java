package dev.kumiko.faults.check;

import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Judges a list-append workload's history, key by key. An {@code append} adds its argument (a
 * number unique in the history) to the key's list; a {@code read} returns the list (null: no item).
 * Reads are strongly consistent, so for each key:
 *
 * <ul>
 *   <li>no read holds an element twice (duplicated), or one no append wrote, or one of an append
 *       that failed (a failure means nothing was applied);
 *   <li>every read is a prefix of the longest read: all reads see one order (none reordered);
 *   <li>a read invoked after another completed is at least as long (none went back in time);
 *   <li>a read holds every append acknowledged before it was invoked (none lost);
 *   <li>of two appends, one acknowledged before the other was invoked comes first.
 * </ul>
 */
public final class ListAppendChecker {
    public Verdict check(List<Operation> operations) {
        Map<String, List<Operation>> byKey = new TreeMap<>();
        for (Operation op : operations) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        Anomalies anomalies = new Anomalies();
        for (Map.Entry<String, List<Operation>> e : byKey.entrySet()) {
            checkKey(e.getKey(), e.getValue(), anomalies);
        }
        return anomalies.verdict(operations.size());
    }

    private static void checkKey(String key, List<Operation> ops, Anomalies anomalies) {
        Map<Long, Operation> appends = new HashMap<>();
        List<Operation> reads = new ArrayList<>();
        for (Operation op : ops) {
            if (op.f().equals("append")) {
                if (appends.put(element(op.argument()), op) != null) {
                    throw new IllegalArgumentException("value appended twice to " + key + ": " + op.argument());
                }
            } else if (op.f().equals("read") && op.ok()) {
                reads.add(op);
            }
        }
        List<Long> longest = List.of();
        for (Operation read : reads) {
            List<Long> list = list(read.result());
            checkElements(key, read, list, appends, anomalies);
            checkNoneLost(key, read, list, appends.values(), anomalies);
            if (list.size() > longest.size()) {
                longest = list;
            }
        }
        for (Operation read : reads) {
            List<Long> list = list(read.result());
            if (!longest.subList(0, list.size()).equals(list)) {
                anomalies.add(key + ": read at " + read.invokeIndex() + " " + list + " is not a prefix of " + longest);
            }
        }
        checkMonotonic(key, reads, anomalies);
        checkAppendOrder(key, longest, appends, anomalies);
    }

    private static void checkElements(
            String key, Operation read, List<Long> list, Map<Long, Operation> appends, Anomalies anomalies) {
        Set<Long> seen = new HashSet<>();
        for (Long x : list) {
            if (!seen.add(x)) {
                anomalies.add(key + ": read at " + read.invokeIndex() + " holds " + x + " twice");
            }
            Operation append = appends.get(x);
            if (append == null) {
                anomalies.add(key + ": read at " + read.invokeIndex() + " holds " + x + ", never appended");
            } else if (append.outcome() == EventType.FAIL) {
                anomalies.add(key + ": read at " + read.invokeIndex() + " holds " + x + " of a failed append");
            } else if (append.invokeIndex() > read.completeIndex()) {
                anomalies.add(key + ": read at " + read.invokeIndex() + " holds " + x + ", appended after it");
            }
        }
    }

    private static void checkNoneLost(
            String key, Operation read, List<Long> list, Iterable<Operation> appends, Anomalies anomalies) {
        Set<Long> present = new HashSet<>(list);
        for (Operation append : appends) {
            if (append.ok()
                    && append.completeIndex() < read.invokeIndex()
                    && !present.contains(element(append.argument()))) {
                anomalies.add(key + ": acknowledged append " + append.argument() + " (done at " + append.completeIndex()
                        + ") lost from read at " + read.invokeIndex());
            }
        }
    }

    private static void checkMonotonic(String key, List<Operation> reads, Anomalies anomalies) {
        // Reads sorted by invocation; the longest list of those completed before each read began.
        List<Operation> byCompletion = new ArrayList<>(reads);
        byCompletion.sort((a, b) -> Long.compare(a.completeIndex(), b.completeIndex()));
        int done = 0;
        int longestDone = 0;
        long longestAt = -1;
        for (Operation read : reads) {
            while (done < byCompletion.size() && byCompletion.get(done).completeIndex() < read.invokeIndex()) {
                int size = list(byCompletion.get(done).result()).size();
                if (size > longestDone) {
                    longestDone = size;
                    longestAt = byCompletion.get(done).invokeIndex();
                }
                done++;
            }
            int size = list(read.result()).size();
            if (size < longestDone) {
                anomalies.add(key + ": stale read at " + read.invokeIndex() + ": " + size
                        + " elements after the read at " + longestAt + " saw " + longestDone);
            }
        }
    }

    /** An element placed after another must not have been acknowledged before that one was invoked. */
    private static void checkAppendOrder(
            String key, List<Long> longest, Map<Long, Operation> appends, Anomalies anomalies) {
        long earliestLaterAck = Long.MAX_VALUE; // among the elements after position i
        Long earliestLater = null;
        for (int i = longest.size() - 1; i >= 0; i--) {
            Operation append = appends.get(longest.get(i));
            if (append == null) {
                continue; // reported by checkElements
            }
            if (earliestLater != null && earliestLaterAck < append.invokeIndex()) {
                anomalies.add(key + ": " + earliestLater + " was acknowledged before " + longest.get(i)
                        + " was appended, yet comes after it");
            }
            if (append.ok() && append.completeIndex() < earliestLaterAck) {
                earliestLaterAck = append.completeIndex();
                earliestLater = longest.get(i);
            }
        }
    }

    private static long element(@Nullable Object value) {
        if (value instanceof Long n) {
            return n;
        }
        throw new IllegalArgumentException("an appended element is a number: " + value);
    }

    private static List<Long> list(@Nullable Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> raw)) {
            throw new IllegalArgumentException("a read returns a list or null: " + value);
        }
        List<Long> list = new ArrayList<>(raw.size());
        for (Object o : raw) {
            list.add(element(o));
        }
        return list;
    }
}
