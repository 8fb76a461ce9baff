package dev.kumiko.expr;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The ADD and DELETE actions: number addition and set union / difference. */
final class SetArithmetic {
    private SetArithmetic() {}

    /** ADD: a missing attribute takes the value; numbers add; sets of the same type unite. */
    static AttributeValue add(@Nullable AttributeValue current, AttributeValue operand) {
        if (current == null) {
            return operand;
        }
        if (current.type() != operand.type()) {
            throw UpdateApplier.incorrectDataType();
        }
        switch (current.type()) {
            case N:
                return new AttributeValue.N(
                        ((AttributeValue.N) current).value().add(((AttributeValue.N) operand).value()));
            case SS: {
                Set<String> union = new LinkedHashSet<>(((AttributeValue.SS) current).values());
                union.addAll(((AttributeValue.SS) operand).values());
                return new AttributeValue.SS(List.copyOf(union));
            }
            case NS: {
                Set<DynamoNumber> union = new LinkedHashSet<>(((AttributeValue.NS) current).values());
                union.addAll(((AttributeValue.NS) operand).values());
                return new AttributeValue.NS(List.copyOf(union));
            }
            case BS:
                return new AttributeValue.BS(
                        binaries(((AttributeValue.BS) current).values(), ((AttributeValue.BS) operand).values(), true));
            default:
                throw UpdateApplier.incorrectDataType();
        }
    }

    /** DELETE: removes the operand's elements; a set left empty removes the attribute (null). */
    static @Nullable AttributeValue delete(@Nullable AttributeValue current, AttributeValue operand) {
        if (current == null) {
            return null;
        }
        if (current.type() != operand.type() || !current.type().isSet()) {
            throw UpdateApplier.incorrectDataType();
        }
        AttributeValue result;
        if (current.type() == AttributeType.SS) {
            List<String> left = new ArrayList<>(((AttributeValue.SS) current).values());
            left.removeAll(Set.copyOf(((AttributeValue.SS) operand).values()));
            result = left.isEmpty() ? null : new AttributeValue.SS(List.copyOf(left));
        } else if (current.type() == AttributeType.NS) {
            List<DynamoNumber> left = new ArrayList<>(((AttributeValue.NS) current).values());
            left.removeAll(Set.copyOf(((AttributeValue.NS) operand).values()));
            result = left.isEmpty() ? null : new AttributeValue.NS(List.copyOf(left));
        } else {
            List<byte[]> left =
                    binaries(((AttributeValue.BS) current).values(), ((AttributeValue.BS) operand).values(), false);
            result = left.isEmpty() ? null : new AttributeValue.BS(left);
        }
        return result;
    }

    private static List<byte[]> binaries(List<byte[]> current, List<byte[]> operand, boolean union) {
        Set<ByteBuffer> other = Values.binarySet(operand);
        List<byte[]> out = new ArrayList<>();
        Set<ByteBuffer> kept = new LinkedHashSet<>();
        for (byte[] b : current) {
            if (union || !other.contains(ByteBuffer.wrap(b))) {
                if (kept.add(ByteBuffer.wrap(b))) {
                    out.add(b);
                }
            }
        }
        if (union) {
            for (byte[] b : operand) {
                if (kept.add(ByteBuffer.wrap(b))) {
                    out.add(b);
                }
            }
        }
        return List.copyOf(out);
    }
}
