package dev.kumiko.partiql;

import dev.kumiko.expr.Comparator;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.PathElement;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * WHERE conditions, operands and document paths, into the expression package's AST: OR, AND,
 * NOT, the six comparators, BETWEEN, [NOT] IN, IS [NOT] MISSING / NULL, and the functions
 * begins_with, contains, attribute_type, attribute_exists, attribute_not_exists and size.
 */
final class PqConditionParser {
    /** Words that end a path or start a clause, so they are never read as attribute names. */
    static final Set<String> KEYWORDS = Set.of(
            "SELECT",
            "FROM",
            "WHERE",
            "AND",
            "OR",
            "NOT",
            "IN",
            "BETWEEN",
            "IS",
            "MISSING",
            "NULL",
            "TRUE",
            "FALSE",
            "ORDER",
            "BY",
            "ASC",
            "DESC",
            "INSERT",
            "INTO",
            "VALUE",
            "UPDATE",
            "SET",
            "REMOVE",
            "DELETE",
            "RETURNING",
            "EXISTS",
            "AS");

    private static final Map<String, Comparator> COMPARATORS = Map.of(
            "=",
            Comparator.EQ,
            "<>",
            Comparator.NE,
            "!=",
            Comparator.NE,
            "<",
            Comparator.LT,
            "<=",
            Comparator.LE,
            ">",
            Comparator.GT,
            ">=",
            Comparator.GE);

    private final PqCursor in;
    private final PqValueParser values;
    private int depth;

    PqConditionParser(PqCursor in, PqValueParser values) {
        this.in = in;
        this.values = values;
    }

    Condition condition() {
        Condition left = conjunction();
        while (in.acceptWord("OR")) {
            left = new Condition.Or(left, conjunction());
        }
        return left;
    }

    private Condition conjunction() {
        Condition left = negation();
        while (in.acceptWord("AND")) {
            left = new Condition.And(left, negation());
        }
        return left;
    }

    private Condition negation() {
        if (in.acceptWord("NOT")) {
            return new Condition.Not(nested(this::negation));
        }
        return predicate();
    }

    private Condition predicate() {
        if (in.acceptSymbol("(")) {
            Condition inner = nested(this::condition);
            in.expectSymbol(")");
            return inner;
        }
        PqToken t = in.peek();
        if (t.kind() == PqToken.Kind.WORD && in.peek(1).isSymbol("(") && !t.isWord("size")) {
            return function();
        }
        Operand left = operand();
        return comparison(left);
    }

    /** Bounds the parser's recursion, so a statement of nested parentheses cannot exhaust the stack. */
    private Condition nested(java.util.function.Supplier<Condition> inner) {
        if (++depth > PqLimits.CONDITION_DEPTH_MAX) {
            // UNVERIFIED wording: DynamoDB's limit on nesting in a WHERE clause is not documented.
            throw PqErrors.notWellFormed("Expression nesting exceeds the supported depth");
        }
        try {
            return inner.get();
        } finally {
            depth--;
        }
    }

    private Condition comparison(Operand left) {
        PqToken t = in.next();
        if (t.kind() == PqToken.Kind.SYMBOL && COMPARATORS.containsKey(t.text())) {
            return new Condition.Compare(COMPARATORS.get(t.text()), left, operand());
        }
        if (t.isWord("BETWEEN")) {
            Operand lower = operand();
            in.expectWord("AND");
            return new Condition.Between(left, lower, operand());
        }
        if (t.isWord("IN")) {
            return in(left);
        }
        if (t.isWord("NOT") && in.acceptWord("IN")) {
            return new Condition.Not(in(left));
        }
        if (t.isWord("IS")) {
            return is(left);
        }
        throw PqErrors.unexpected(t);
    }

    private Condition in(Operand left) {
        String close = in.acceptSymbol("[") ? "]" : null;
        if (close == null) {
            in.expectSymbol("(");
            close = ")";
        }
        List<Operand> candidates = new ArrayList<>();
        do {
            candidates.add(operand());
        } while (in.acceptSymbol(","));
        in.expectSymbol(close);
        return new Condition.In(left, candidates);
    }

    private Condition is(Operand left) {
        boolean negated = in.acceptWord("NOT");
        Condition c;
        if (in.acceptWord("MISSING")) {
            c = new Condition.AttributeNotExists(requirePath(left, "IS MISSING"));
        } else if (in.acceptWord("NULL")) {
            c = new Condition.AttributeTypeIs(
                    requirePath(left, "IS NULL"), new Operand.Literal(new AttributeValue.S("NULL")));
        } else {
            throw PqErrors.unexpected(in.peek());
        }
        return negated ? new Condition.Not(c) : c;
    }

    private Condition function() {
        PqToken name = in.next();
        String fn = name.text().toLowerCase(Locale.ROOT);
        in.expectSymbol("(");
        List<Operand> args = new ArrayList<>();
        if (!in.acceptSymbol(")")) {
            do {
                args.add(operand());
            } while (in.acceptSymbol(","));
            in.expectSymbol(")");
        }
        switch (fn) {
            case "begins_with":
                arity(fn, args, 2);
                return new Condition.BeginsWith(args.get(0), args.get(1));
            case "contains":
                arity(fn, args, 2);
                return new Condition.Contains(args.get(0), args.get(1));
            case "attribute_type":
                arity(fn, args, 2);
                return new Condition.AttributeTypeIs(requirePath(args.get(0), fn), args.get(1));
            case "attribute_exists":
                arity(fn, args, 1);
                return new Condition.AttributeExists(requirePath(args.get(0), fn));
            case "attribute_not_exists":
                arity(fn, args, 1);
                return new Condition.AttributeNotExists(requirePath(args.get(0), fn));
            default:
                // Observed: "Unrecognized function: exists at 1:52:6".
                throw PqErrors.validation("Unrecognized function: " + fn + " at " + name.position());
        }
    }

    private static void arity(String fn, List<Operand> args, int n) {
        if (args.size() != n) {
            // Observed wording.
            throw PqErrors.validation("Incorrect number of operands for operator or function; operator or function: "
                    + fn + ", number of operands: " + args.size());
        }
    }

    private static Operand.Path requirePath(Operand o, String fn) {
        if (o instanceof Operand.Path p) {
            return p;
        }
        // Observed wording (for attribute_exists).
        throw PqErrors.validation("Operator or function requires a document path; operator or function: " + fn);
    }

    /** A path, a literal or parameter, or {@code size(path)}. */
    Operand operand() {
        if (values.atValue()) {
            return new Operand.Literal(values.value());
        }
        PqToken t = in.peek();
        if (t.isWord("size") && in.peek(1).isSymbol("(")) {
            in.next();
            in.next();
            Operand arg = operand();
            in.expectSymbol(")");
            return new Operand.Size(requirePath(arg, "size"));
        }
        return path();
    }

    Operand.Path path() {
        List<PathElement> elements = new ArrayList<>();
        elements.add(new PathElement.Name(name()));
        while (true) {
            if (in.peek().isSymbol(".") && isName(in.peek(1))) {
                in.next();
                elements.add(new PathElement.Name(name()));
            } else if (in.peek().isSymbol("[")) {
                in.next();
                PqToken index = in.next();
                if (index.kind() != PqToken.Kind.NUMBER || !index.text().matches("[0-9]{1,9}")) {
                    throw PqErrors.unexpected(index);
                }
                in.expectSymbol("]");
                elements.add(new PathElement.Index(Integer.parseInt(index.text())));
            } else {
                return new Operand.Path(elements);
            }
        }
    }

    /** An attribute or table name: a "quoted" identifier or a bare word that is no keyword. */
    String name() {
        PqToken t = in.next();
        if (!isName(t)) {
            throw PqErrors.unexpected(t);
        }
        return t.text();
    }

    static boolean isName(PqToken t) {
        return t.kind() == PqToken.Kind.QUOTED
                || (t.kind() == PqToken.Kind.WORD && !KEYWORDS.contains(t.text().toUpperCase(Locale.ROOT)));
    }
}
