package dev.kumiko.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Seeded random items and conditions; each failure prints its seed so it can be replayed. */
class ConditionPropertyTest {
    private static final int RUNS = 2000;
    private static final String[] NAMES = {"a", "b", "c"};
    private static final String[] VALUES = {":v0", ":v1", ":v2", ":v3"};

    private final Random random = new Random(0x6B756D696B6FL);

    private AttributeValue randomScalar() {
        switch (random.nextInt(4)) {
            case 0:
                return AttributeValue.s(String.valueOf((char) ('a' + random.nextInt(3))));
            case 1:
                return new AttributeValue.N(DynamoNumber.of(random.nextInt(5) - 2));
            case 2:
                return AttributeValue.b(new byte[] {(byte) random.nextInt(3)});
            default:
                return random.nextBoolean() ? AttributeValue.TRUE : AttributeValue.NULL;
        }
    }

    private Map<String, AttributeValue> randomItem() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (String n : NAMES) {
            if (random.nextInt(4) > 0) {
                item.put(n, randomScalar());
            }
        }
        return item;
    }

    private Map<String, AttributeValue> randomValues() {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        for (String v : VALUES) {
            values.put(v, randomScalar());
        }
        return values;
    }

    private Operand path() {
        return Operand.Path.of(NAMES[random.nextInt(NAMES.length)]);
    }

    private Operand value() {
        return new Operand.ValueRef(VALUES[random.nextInt(VALUES.length)]);
    }

    private Condition randomCondition(int depth) {
        int choice = random.nextInt(depth > 2 ? 5 : 9);
        switch (choice) {
            case 0:
                return new Condition.Compare(anyComparator(), path(), value());
            case 1:
                return new Condition.AttributeExists(path());
            case 2:
                return new Condition.BeginsWith(path(), value());
            case 3:
                return new Condition.Contains(path(), value());
            case 4:
                return new Condition.In(path(), List.of(value(), value()));
            case 5:
                return new Condition.Not(randomCondition(depth + 1));
            case 6:
                return new Condition.And(randomCondition(depth + 1), randomCondition(depth + 1));
            case 7:
                return new Condition.Or(randomCondition(depth + 1), randomCondition(depth + 1));
            default:
                return new Condition.Compare(Comparator.EQ, new Operand.Size(path()), value());
        }
    }

    private boolean eval(Condition c, Map<String, AttributeValue> values, Map<String, AttributeValue> item) {
        return new ConditionEvaluator(Map.of(), values).test(c, item);
    }

    @Test
    void printThenParseIsIdentity() {
        for (int i = 0; i < RUNS; i++) {
            Condition c = randomCondition(0);
            String text = ExpressionPrinter.print(c);
            assertThat(ExpressionParser.parseUncached(ExpressionKind.CONDITION, text))
                    .as(text)
                    .isEqualTo(c);
        }
    }

    @Test
    void logicalAndComparisonLaws() {
        for (int i = 0; i < RUNS; i++) {
            Map<String, AttributeValue> item = randomItem();
            Map<String, AttributeValue> values = randomValues();
            Condition c = randomCondition(0);
            Condition d = randomCondition(0);
            Operand p = path();
            Operand x = value();
            Operand y = value();
            assertThat(eval(new Condition.Not(c), values, item)).isEqualTo(!eval(c, values, item));
            assertThat(eval(new Condition.And(c, d), values, item))
                    .isEqualTo(eval(c, values, item) && eval(d, values, item));
            assertThat(eval(new Condition.Between(p, x, y), values, item))
                    .isEqualTo(eval(
                            new Condition.And(
                                    new Condition.Compare(Comparator.GE, p, x),
                                    new Condition.Compare(Comparator.LE, p, y)),
                            values,
                            item));
            assertThat(eval(new Condition.In(p, List.of(x, y)), values, item))
                    .isEqualTo(eval(
                            new Condition.Or(
                                    new Condition.Compare(Comparator.EQ, p, x),
                                    new Condition.Compare(Comparator.EQ, p, y)),
                            values,
                            item));
            assertThat(eval(new Condition.Compare(Comparator.NE, p, x), values, item))
                    .isEqualTo(!eval(new Condition.Compare(Comparator.EQ, p, x), values, item));
            for (Comparator op : Comparator.values()) {
                assertThat(eval(new Condition.Compare(op, p, x), values, item))
                        .isEqualTo(eval(new Condition.Compare(op.flipped(), x, p), values, item));
            }
        }
    }

    @Test
    void precedenceMatchesExplicitParentheses() {
        for (int i = 0; i < RUNS; i++) {
            List<Condition> atoms = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                atoms.add(new Condition.Compare(anyComparator(), path(), value()));
            }
            String a = ExpressionPrinter.print(atoms.get(0));
            String b = ExpressionPrinter.print(atoms.get(1));
            String c = ExpressionPrinter.print(atoms.get(2));
            Condition implicit =
                    ExpressionParser.condition("NOT " + a + " OR " + b + " AND " + c, ExpressionKind.FILTER);
            Condition explicit =
                    ExpressionParser.condition("(NOT (" + a + ")) OR (" + b + " AND " + c + ")", ExpressionKind.FILTER);
            assertThat(implicit).isEqualTo(explicit);
        }
    }

    /** One of the six comparators, chosen at random. */
    private Comparator anyComparator() {
        Comparator[] all = Comparator.values();
        return all[random.nextInt(all.length)];
    }
}
