package dev.kumiko.faults.check;

import dev.kumiko.faults.history.EventType;
import dev.kumiko.faults.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Judges a streams workload's history. A {@code write} puts its argument (a number unique in the
 * history) as the key's value; a {@code read} returns the value (null: no item); a {@code stream}
 * (key "*", argument: the server read through) returns, for each key, its stream records in
 * stream order as [new value, old value] pairs. For each stream read and each key:
 *
 * <ul>
 *   <li>no write has two records; a failed write has none, and no record holds a value no write
 *       wrote;
 *   <li>in the last stream read through each server, every acknowledged write completed before it
 *       began has a record (none lost). Earlier reads may miss the newest records: DynamoDB
 *       promises stream records in near real time, not at the write's acknowledgement;
 *   <li>each record's old image is the previous record's new image, and the first has none: the
 *       records are the item's changes, each once, in the order they were applied;
 *   <li>of two writes, one acknowledged before the other was invoked comes first;
 *   <li>a strongly consistent read completed before the stream read began returns a value the
 *       stream holds (or no item, before the first record).
 * </ul>
 */
public final class StreamsChecker {
    public Verdict check(List<Operation> operations) {
        Map<String, Map<Long, Operation>> writes = new TreeMap<>();
        Map<String, List<Operation>> reads = new HashMap<>();
        List<Operation> streams = new ArrayList<>();
        for (Operation op : operations) {
            switch (op.f()) {
                case "write" -> addWrite(writes, op);
                case "read" -> {
                    if (op.ok()) {
                        reads.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
                    }
                }
                case "stream" -> {
                    if (op.ok()) {
                        streams.add(op);
                    }
                }
                default -> throw new IllegalArgumentException("not a streams operation: " + op.f());
            }
        }
        Anomalies anomalies = new Anomalies();
        if (streams.isEmpty() && !writes.isEmpty()) {
            anomalies.add("no stream read succeeded");
        }
        Map<String, Operation> lastPerServer = new HashMap<>();
        for (Operation stream : streams) {
            lastPerServer.merge(
                    String.valueOf(stream.argument()), stream, (a, b) -> a.invokeIndex() > b.invokeIndex() ? a : b);
        }
        for (Operation stream : streams) {
            // Invocation indexes are unique in a history: the same index is the same operation.
            Operation lastOfServer = lastPerServer.get(String.valueOf(stream.argument()));
            boolean last = lastOfServer != null && lastOfServer.invokeIndex() == stream.invokeIndex();
            Map<String, List<List<@Nullable Long>>> byKey = records(stream.result());
            for (String key : byKey.keySet()) {
                if (!writes.containsKey(key)) {
                    anomalies.add(key + ": stream at " + stream.invokeIndex() + " has records of a key never written");
                }
            }
            for (Map.Entry<String, Map<Long, Operation>> e : writes.entrySet()) {
                String key = e.getKey();
                List<List<@Nullable Long>> records = byKey.getOrDefault(key, List.of());
                String at = key + ": stream at " + stream.invokeIndex();
                checkRecords(at, stream, last, records, e.getValue(), anomalies);
                checkChain(at, records, anomalies);
                checkOrder(at, records, e.getValue(), anomalies);
                checkReads(at, stream, records, reads.getOrDefault(key, List.of()), anomalies);
            }
        }
        return anomalies.verdict(operations.size());
    }

    private static void addWrite(Map<String, Map<Long, Operation>> writes, Operation op) {
        long x = number(op.argument(), "a written value");
        if (writes.computeIfAbsent(op.key(), k -> new HashMap<>()).put(x, op) != null) {
            throw new IllegalArgumentException("value written twice to " + op.key() + ": " + x);
        }
    }

    /** Each value once, written by a write that did not fail; every acknowledged write present (judgeLoss). */
    private static void checkRecords(
            String at,
            Operation stream,
            boolean judgeLoss,
            List<List<@Nullable Long>> records,
            Map<Long, Operation> writes,
            Anomalies anomalies) {
        Set<Long> seen = new HashSet<>();
        for (List<@Nullable Long> record : records) {
            Long x = record.get(0);
            if (x == null) {
                anomalies.add(at + ": a record without a new image (the workload never deletes)");
                continue;
            }
            if (!seen.add(x)) {
                anomalies.add(at + ": value " + x + " has two records");
            }
            Operation write = writes.get(x);
            if (write == null) {
                anomalies.add(at + ": value " + x + " was never written to this key");
            } else if (write.outcome() == EventType.FAIL) {
                anomalies.add(at + ": value " + x + " is of a failed write");
            }
        }
        for (Operation write : writes.values()) {
            long x = number(write.argument(), "a written value");
            if (judgeLoss && write.ok() && write.completeIndex() < stream.invokeIndex() && !seen.contains(x)) {
                anomalies.add(
                        at + ": acknowledged write " + x + " (done at " + write.completeIndex() + ") has no record");
            }
        }
    }

    /** Record i's old image is record i-1's new image; the first record's old image is empty. */
    private static void checkChain(String at, List<List<@Nullable Long>> records, Anomalies anomalies) {
        Long previous = null;
        for (List<@Nullable Long> record : records) {
            if (!Objects.equals(record.get(1), previous)) {
                anomalies.add(at + ": the record of " + record.get(0) + " has old image " + record.get(1)
                        + ", the record before it new image " + previous);
            }
            previous = record.get(0);
        }
    }

    /** A write acknowledged before another was invoked has its record first. */
    private static void checkOrder(
            String at, List<List<@Nullable Long>> records, Map<Long, Operation> writes, Anomalies anomalies) {
        long earliestLaterAck = Long.MAX_VALUE; // among the records after position i
        Long earliestLater = null;
        for (int i = records.size() - 1; i >= 0; i--) {
            Long x = records.get(i).get(0);
            Operation write = x == null ? null : writes.get(x);
            if (write == null) {
                continue; // reported by checkRecords
            }
            if (earliestLater != null && earliestLaterAck < write.invokeIndex()) {
                anomalies.add(at + ": " + earliestLater + " was acknowledged before " + x
                        + " was written, yet its record comes after");
            }
            if (write.ok() && write.completeIndex() < earliestLaterAck) {
                earliestLaterAck = write.completeIndex();
                earliestLater = x;
            }
        }
    }

    /** A read done before the stream read returns a value the stream holds, or no item. */
    private static void checkReads(
            String at,
            Operation stream,
            List<List<@Nullable Long>> records,
            List<Operation> reads,
            Anomalies anomalies) {
        Set<Long> values = new HashSet<>();
        for (List<@Nullable Long> record : records) {
            values.add(record.get(0));
        }
        for (Operation read : reads) {
            if (read.completeIndex() < stream.invokeIndex() && read.result() != null) {
                long x = number(read.result(), "a read value");
                if (!values.contains(x)) {
                    anomalies.add(at + ": the read at " + read.invokeIndex() + " saw " + x + ", which has no record");
                }
            }
        }
    }

    @SuppressWarnings("unchecked") // the shape is checked element by element below
    private static Map<String, List<List<@Nullable Long>>> records(@Nullable Object result) {
        if (!(result instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("a stream read returns a map of key to records: " + result);
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getValue() instanceof List<?> list)) {
                throw new IllegalArgumentException("the records of " + e.getKey() + " are not a list");
            }
            for (Object record : list) {
                if (!(record instanceof List<?> pair) || pair.size() != 2) {
                    throw new IllegalArgumentException("a record is a [new, old] pair: " + record);
                }
                for (Object v : pair) {
                    if (v != null && !(v instanceof Long)) {
                        throw new IllegalArgumentException("an image value is a number or null: " + v);
                    }
                }
            }
        }
        return (Map<String, List<List<@Nullable Long>>>) map;
    }

    private static long number(@Nullable Object value, String what) {
        if (value instanceof Long n) {
            return n;
        }
        throw new IllegalArgumentException(what + " is a number: " + value);
    }
}
