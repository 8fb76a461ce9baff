package dev.kumiko.partiql;

import dev.kumiko.expr.Comparator;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.PathElement;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Reads key attributes out of a WHERE clause: its top-level AND terms and the ones that fix a key. */
final class PqKeys {
    private PqKeys() {}

    /** The terms of the top-level AND chain, in textual order; empty without a WHERE. */
    static List<Condition> conjuncts(@Nullable Condition c) {
        List<Condition> out = new ArrayList<>();
        flatten(c, out);
        return out;
    }

    private static void flatten(@Nullable Condition c, List<Condition> out) {
        if (c == null) {
            return;
        }
        if (c instanceof Condition.And a) {
            flatten(a.left(), out);
            flatten(a.right(), out);
        } else {
            out.add(c);
        }
    }

    /** The AND of the terms, or null when there are none. */
    static @Nullable Condition and(List<Condition> terms) {
        Condition out = null;
        for (Condition t : terms) {
            out = out == null ? t : new Condition.And(out, t);
        }
        return out;
    }

    /** The value the term fixes the top-level attribute to with {@code =}, or null. */
    static @Nullable AttributeValue equality(Condition c, String name) {
        if (c instanceof Condition.Compare cmp && cmp.comparator() == Comparator.EQ) {
            if (isName(cmp.left(), name) && cmp.right() instanceof Operand.Literal l) {
                return l.value();
            }
            if (isName(cmp.right(), name) && cmp.left() instanceof Operand.Literal l) {
                return l.value();
            }
        }
        return null;
    }

    /**
     * The term as a sort-key condition on {@code name} with the path on the left, or null when a
     * Query's key condition cannot express it (<>, functions other than begins_with, paths on both sides).
     */
    static @Nullable Condition sortKeyCondition(Condition c, String name) {
        if (c instanceof Condition.Compare cmp && cmp.comparator() != Comparator.NE) {
            if (isName(cmp.left(), name) && cmp.right() instanceof Operand.Literal) {
                return cmp;
            }
            if (isName(cmp.right(), name) && cmp.left() instanceof Operand.Literal) {
                return new Condition.Compare(
                        cmp.comparator().flipped(), /* left= */ cmp.right(), /* right= */ cmp.left());
            }
        }
        if (c instanceof Condition.Between b
                && isName(b.value(), name)
                && b.lower() instanceof Operand.Literal
                && b.upper() instanceof Operand.Literal) {
            return b;
        }
        if (c instanceof Condition.BeginsWith bw
                && isName(bw.value(), name)
                && bw.prefix() instanceof Operand.Literal) {
            return bw;
        }
        return null;
    }

    /**
     * The full primary key fixed by equalities, in key-schema order; the other terms go to {@code rest}.
     * Refuses a WHERE that does not fix every key attribute, as DynamoDB does for writes.
     */
    static Map<String, AttributeValue> fullKey(@Nullable Condition where, List<String> keyNames, List<Condition> rest) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (Condition term : conjuncts(where)) {
            boolean used = false;
            for (String name : keyNames) {
                AttributeValue v = key.containsKey(name) ? null : equality(term, name);
                if (v != null) {
                    key.put(name, v);
                    used = true;
                    break;
                }
            }
            if (!used) {
                rest.add(term);
            }
        }
        if (key.size() != keyNames.size()) {
            throw PqErrors.validation(PqErrors.KEY_EQUALITY);
        }
        return key;
    }

    /** Top-level attribute names a condition reads. */
    static Set<String> names(@Nullable Condition c) {
        Set<String> out = new LinkedHashSet<>();
        collect(c, out);
        return out;
    }

    private static void collect(@Nullable Condition c, Set<String> out) {
        if (c instanceof Condition.And a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (c instanceof Condition.Or o) {
            collect(o.left(), out);
            collect(o.right(), out);
        } else if (c instanceof Condition.Not n) {
            collect(n.operand(), out);
        } else if (c instanceof Condition.Compare cmp) {
            operandNames(List.of(cmp.left(), cmp.right()), out);
        } else if (c instanceof Condition.Between b) {
            operandNames(List.of(b.value(), b.lower(), b.upper()), out);
        } else if (c instanceof Condition.In in) {
            operandNames(List.of(in.value()), out);
            operandNames(in.candidates(), out);
        } else if (c instanceof Condition.AttributeExists e) {
            operandNames(List.of(e.path()), out);
        } else if (c instanceof Condition.AttributeNotExists e) {
            operandNames(List.of(e.path()), out);
        } else if (c instanceof Condition.AttributeTypeIs t) {
            operandNames(List.of(t.path()), out);
        } else if (c instanceof Condition.BeginsWith b) {
            operandNames(List.of(b.value(), b.prefix()), out);
        } else if (c instanceof Condition.Contains k) {
            operandNames(List.of(k.container(), k.member()), out);
        }
    }

    private static void operandNames(List<Operand> operands, Set<String> out) {
        for (Operand o : operands) {
            if (o instanceof Operand.Path p) {
                out.add(p.firstName());
            } else if (o instanceof Operand.Size s) {
                operandNames(List.of(s.argument()), out);
            }
        }
    }

    private static boolean isName(Operand o, String name) {
        return o instanceof Operand.Path p
                && p.elements().size() == 1
                && p.elements().get(0) instanceof PathElement.Name n
                && n.text().equals(name);
    }
}
