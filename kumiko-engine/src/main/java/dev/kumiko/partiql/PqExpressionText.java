package dev.kumiko.partiql;

import dev.kumiko.expr.Condition;
import dev.kumiko.expr.ExpressionPrinter;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.PathElement;
import dev.kumiko.expr.UpdateAction;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns PartiQL's bound AST into the expression text, ExpressionAttributeNames and
 * ExpressionAttributeValues of the equivalent DynamoDB request. Every attribute name becomes a
 * {@code #n} placeholder (so reserved words and odd characters need no care) and every literal a
 * {@code :v} placeholder; the engine then validates and evaluates them as it would the request.
 */
final class PqExpressionText {
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> placeholderByName = new HashMap<>();
    private final Map<String, AttributeValue> values = new LinkedHashMap<>();

    /** Null when no name was used: DynamoDB refuses an empty map. */
    @Nullable
    Map<String, String> names() {
        return names.isEmpty() ? null : names;
    }

    @Nullable
    Map<String, AttributeValue> values() {
        return values.isEmpty() ? null : values;
    }

    @Nullable
    String condition(@Nullable Condition c) {
        return c == null ? null : ExpressionPrinter.print(bind(c));
    }

    @Nullable
    String projection(List<Operand.Path> paths) {
        if (paths == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Operand.Path p : paths) {
            parts.add(ExpressionPrinter.print(path(p)));
        }
        return String.join(", ", parts);
    }

    /** SET, REMOVE, ADD and DELETE clauses, each listing its actions in the statement's order. */
    String update(List<UpdateAction> actions) {
        Map<String, List<String>> clauses = new LinkedHashMap<>();
        for (UpdateAction a : actions) {
            String target = ExpressionPrinter.print(path(a.path()));
            if (a instanceof UpdateAction.Set s) {
                clauses.computeIfAbsent("SET", k -> new ArrayList<>())
                        .add(target + " = " + ExpressionPrinter.print(operand(s.value())));
            } else if (a instanceof UpdateAction.Remove) {
                clauses.computeIfAbsent("REMOVE", k -> new ArrayList<>()).add(target);
            } else if (a instanceof UpdateAction.Add add) {
                clauses.computeIfAbsent("ADD", k -> new ArrayList<>())
                        .add(target + " " + ExpressionPrinter.print(operand(add.value())));
            } else {
                UpdateAction.Delete d = (UpdateAction.Delete) a;
                clauses.computeIfAbsent("DELETE", k -> new ArrayList<>())
                        .add(target + " " + ExpressionPrinter.print(operand(d.value())));
            }
        }
        StringBuilder sb = new StringBuilder();
        clauses.forEach((clause, list) -> sb.append(sb.length() == 0 ? "" : " ")
                .append(clause)
                .append(' ')
                .append(String.join(", ", list)));
        return sb.toString();
    }

    /** A placeholder for a top-level attribute name, e.g. for the implicit key conditions. */
    String name(String attribute) {
        return placeholderByName.computeIfAbsent(attribute, a -> {
            String p = "#n" + names.size();
            names.put(p, a);
            return p;
        });
    }

    String value(AttributeValue v) {
        String p = ":v" + values.size();
        values.put(p, v);
        return p;
    }

    private Condition bind(Condition c) {
        if (c instanceof Condition.And a) {
            return new Condition.And(bind(a.left()), bind(a.right()));
        }
        if (c instanceof Condition.Or o) {
            return new Condition.Or(bind(o.left()), bind(o.right()));
        }
        if (c instanceof Condition.Not n) {
            return new Condition.Not(bind(n.operand()));
        }
        if (c instanceof Condition.Compare cmp) {
            return new Condition.Compare(cmp.comparator(), operand(cmp.left()), operand(cmp.right()));
        }
        if (c instanceof Condition.Between b) {
            return new Condition.Between(operand(b.value()), operand(b.lower()), operand(b.upper()));
        }
        if (c instanceof Condition.In in) {
            List<Operand> candidates = new ArrayList<>();
            in.candidates().forEach(o -> candidates.add(operand(o)));
            return new Condition.In(operand(in.value()), candidates);
        }
        if (c instanceof Condition.AttributeExists e) {
            return new Condition.AttributeExists(operand(e.path()));
        }
        if (c instanceof Condition.AttributeNotExists e) {
            return new Condition.AttributeNotExists(operand(e.path()));
        }
        if (c instanceof Condition.AttributeTypeIs t) {
            return new Condition.AttributeTypeIs(operand(t.path()), operand(t.type()));
        }
        if (c instanceof Condition.BeginsWith b) {
            return new Condition.BeginsWith(operand(b.value()), operand(b.prefix()));
        }
        Condition.Contains k = (Condition.Contains) c;
        return new Condition.Contains(operand(k.container()), operand(k.member()));
    }

    private Operand operand(Operand o) {
        if (o instanceof Operand.Path p) {
            return path(p);
        }
        if (o instanceof Operand.Literal l) {
            return new Operand.ValueRef(value(l.value()));
        }
        if (o instanceof Operand.Size s) {
            return new Operand.Size(operand(s.argument()));
        }
        if (o instanceof Operand.Arithmetic a) {
            return new Operand.Arithmetic(a.plus(), operand(a.left()), operand(a.right()));
        }
        if (o instanceof Operand.ListAppend l) {
            return new Operand.ListAppend(operand(l.first()), operand(l.second()));
        }
        if (o instanceof Operand.IfNotExists i) {
            return new Operand.IfNotExists(operand(i.path()), operand(i.fallback()));
        }
        return o;
    }

    private Operand.Path path(Operand.Path p) {
        List<PathElement> out = new ArrayList<>(p.elements().size());
        for (PathElement e : p.elements()) {
            out.add(e instanceof PathElement.Name n ? new PathElement.Name(name(n.text())) : e);
        }
        return new Operand.Path(out);
    }
}
