package dev.kumiko.server.fuzz;

import dev.kumiko.expr.ExpressionKind;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random well-formed expressions of each kind, from the grammar of the Developer Guide: paths with
 * dots, indexes and #names, comparisons, BETWEEN, IN, the functions, AND/OR/NOT, parentheses, and
 * SET/REMOVE/ADD/DELETE clauses. Most parse, so the placeholder and type checks and the evaluation
 * behind the parser get exercised too, which byte mutations seldom reach.
 */
final class ExpressionGen {
    private static final List<String> NAMES = List.of("a", "b", "PK", "SK", "l", "s", "c", "#a", "#b", "#n", "size");
    private static final List<String> VALUES = List.of(":v", ":w", ":t", ":l", ":s");
    private static final List<String> COMPARATORS = List.of("=", "<>", "<", "<=", ">", ">=");
    /** Bounds recursion, and keeps most texts under the 4 KB expression limit. */
    private static final int DEPTH_MAX = 4;

    private ExpressionGen() {}

    static String of(SplittableRandom r, ExpressionKind kind) {
        return switch (kind) {
            case CONDITION, FILTER, SEARCH_CONDITION -> condition(r, 0);
            case KEY_CONDITION -> keyCondition(r);
            case PROJECTION -> projection(r);
            case UPDATE -> update(r);
        };
    }

    static String path(SplittableRandom r) {
        StringBuilder b = new StringBuilder(pick(r, NAMES));
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(r.nextBoolean() ? "[" + r.nextInt(4) + "]" : "." + pick(r, NAMES));
        }
        return b.toString();
    }

    private static String operand(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0, 1 -> path(r);
            case 2, 3 -> pick(r, VALUES);
            default -> "size(" + path(r) + ")";
        };
    }

    static String condition(SplittableRandom r, int depth) {
        int choice = depth >= DEPTH_MAX ? r.nextInt(4) : r.nextInt(8);
        return switch (choice) {
            case 0 -> operand(r) + " " + pick(r, COMPARATORS) + " " + operand(r);
            case 1 -> operand(r) + " BETWEEN " + operand(r) + " AND " + operand(r);
            case 2 -> operand(r) + " IN (" + operand(r) + (r.nextBoolean() ? ", " + operand(r) : "") + ")";
            case 3 -> function(r);
            case 4 -> "NOT " + condition(r, depth + 1);
            case 5 -> "(" + condition(r, depth + 1) + ")";
            case 6 -> condition(r, depth + 1) + " AND " + condition(r, depth + 1);
            default -> condition(r, depth + 1) + " OR " + condition(r, depth + 1);
        };
    }

    private static String function(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 -> "attribute_exists(" + path(r) + ")";
            case 1 -> "attribute_not_exists(" + path(r) + ")";
            case 2 -> "attribute_type(" + path(r) + ", " + pick(r, VALUES) + ")";
            case 3 -> "begins_with(" + operand(r) + ", " + operand(r) + ")";
            default -> "contains(" + operand(r) + ", " + operand(r) + ")";
        };
    }

    private static String keyCondition(SplittableRandom r) {
        String partition = (r.nextBoolean() ? "PK" : "#b") + " = " + pick(r, VALUES);
        return switch (r.nextInt(4)) {
            case 0 -> partition;
            case 1 -> partition + " AND SK " + pick(r, COMPARATORS) + " " + pick(r, VALUES);
            case 2 -> partition + " AND begins_with(SK, " + pick(r, VALUES) + ")";
            default -> "SK BETWEEN " + pick(r, VALUES) + " AND " + pick(r, VALUES) + " AND " + partition;
        };
    }

    private static String projection(SplittableRandom r) {
        StringBuilder b = new StringBuilder(path(r));
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(", ").append(path(r));
        }
        return b.toString();
    }

    private static String update(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        int clauses = 1 + r.nextInt(3);
        for (int i = 0; i < clauses; i++) {
            switch (r.nextInt(4)) {
                case 0 -> b.append("SET ").append(path(r)).append(" = ").append(setValue(r));
                case 1 -> b.append("REMOVE ").append(path(r)).append(r.nextBoolean() ? ", " + path(r) : "");
                case 2 -> b.append("ADD ").append(path(r)).append(' ').append(pick(r, VALUES));
                default -> b.append("DELETE ").append(path(r)).append(' ').append(pick(r, VALUES));
            }
            b.append(' ');
        }
        return b.toString();
    }

    private static String setValue(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 ->
                operand(r).replace("size(", "if_not_exists(" + path(r) + ", ").replace(")", "") + ")";
            case 1 -> pathOrValue(r) + " + " + pathOrValue(r);
            case 2 -> pathOrValue(r) + " - " + pathOrValue(r);
            case 3 -> "list_append(" + pathOrValue(r) + ", " + pathOrValue(r) + ")";
            default -> "if_not_exists(" + path(r) + ", " + pick(r, VALUES) + ")";
        };
    }

    private static String pathOrValue(SplittableRandom r) {
        return r.nextBoolean() ? path(r) : pick(r, VALUES);
    }

    private static String pick(SplittableRandom r, List<String> from) {
        return from.get(r.nextInt(from.size()));
    }
}
