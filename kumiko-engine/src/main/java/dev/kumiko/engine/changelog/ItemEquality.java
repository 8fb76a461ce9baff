package dev.kumiko.engine.changelog;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.PatchedItem;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether two items hold the same data, as DynamoDB compares them to decide that a write changed
 * nothing (and so appends no stream record): attribute order is irrelevant, sets are unordered,
 * numbers compare by value (1 equals 1.0), lists compare element by element in order.
 */
final class ItemEquality {
    private ItemEquality() {}

    static boolean same(Map<String, AttributeValue> a, Map<String, AttributeValue> b) {
        if (b instanceof PatchedItem patched && patched.base() == a) {
            return sameAfterChanges(patched);
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, AttributeValue> e : a.entrySet()) {
            AttributeValue other = b.get(e.getKey());
            if (other == null || !same(e.getValue(), other)) {
                return false;
            }
        }
        return true;
    }

    /**
     * An item is the same as its base after an update's changes if every changed attribute holds
     * what it held before (absent before and after counts as the same): the untouched attributes
     * are the base's own. This reads the changed attributes only, where a walk of the patched item
     * would build its whole map and decode every attribute of the stored base.
     */
    private static boolean sameAfterChanges(PatchedItem patched) {
        for (int i = 0; i < patched.changeCount(); i++) {
            AttributeValue before = patched.baseValue(patched.changedName(i));
            AttributeValue after = patched.changedValue(i);
            boolean unchanged = before == null ? after == null : after != null && same(before, after);
            if (!unchanged) {
                return false;
            }
        }
        return true;
    }

    static boolean same(AttributeValue a, AttributeValue b) {
        if (a.type() != b.type()) {
            return false;
        }
        return switch (a.type()) {
            case SS ->
                new HashSet<>(((AttributeValue.SS) a).values()).equals(new HashSet<>(((AttributeValue.SS) b).values()));
            case NS -> numbers(((AttributeValue.NS) a).values()).equals(numbers(((AttributeValue.NS) b).values()));
            case BS -> binaries(((AttributeValue.BS) a).values()).equals(binaries(((AttributeValue.BS) b).values()));
            case M -> same(((AttributeValue.M) a).values(), ((AttributeValue.M) b).values());
            case L -> sameList(((AttributeValue.L) a).values(), ((AttributeValue.L) b).values());
            default -> a.equals(b);
        };
    }

    private static boolean sameList(List<AttributeValue> a, List<AttributeValue> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A sorted set: DynamoNumber's equals compares by value but its hash does not, so no HashSet. */
    private static Set<DynamoNumber> numbers(List<DynamoNumber> values) {
        return new TreeSet<>(values);
    }

    private static Set<ByteBuffer> binaries(List<byte[]> values) {
        Set<ByteBuffer> out = new HashSet<>(values.size() * 2);
        for (byte[] v : values) {
            out.add(ByteBuffer.wrap(v));
        }
        return out;
    }
}
