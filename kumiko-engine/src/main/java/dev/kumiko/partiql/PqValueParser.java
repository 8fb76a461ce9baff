package dev.kumiko.partiql;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * PartiQL literals in DynamoDB's syntax: 'strings', numbers, TRUE / FALSE / NULL, {@code ?},
 * lists {@code [..]}, maps {@code {'k': v}} and sets {@code <<..>>}. Errors inside a value name
 * their place the way DynamoDB does: {@code root}, {@code root.key}, {@code root[1]}.
 */
final class PqValueParser {
    private final PqCursor in;

    PqValueParser(PqCursor in) {
        this.in = in;
    }

    /** True when the next token starts a literal (or a parameter). */
    boolean atValue() {
        PqToken t = in.peek();
        return t.kind() == PqToken.Kind.STRING
                || t.kind() == PqToken.Kind.NUMBER
                || t.isWord("TRUE")
                || t.isWord("FALSE")
                || t.isWord("NULL")
                || t.isSymbol("?")
                || t.isSymbol("[")
                || t.isSymbol("{")
                || t.isSymbol("<<")
                || (t.isSymbol("-") && in.peek(1).kind() == PqToken.Kind.NUMBER);
    }

    AttributeValue value() {
        return value("root", 0);
    }

    private AttributeValue value(String where, int depth) {
        if (depth > PqLimits.NESTING_DEPTH_MAX) {
            throw PqErrors.validation(PqErrors.NESTING);
        }
        PqToken t = in.next();
        switch (t.kind()) {
            case STRING:
                return new AttributeValue.S(t.text());
            case NUMBER:
                return number(t.text(), where);
            case WORD:
                return word(t);
            case SYMBOL:
                return symbol(t, where, depth);
            default:
                throw PqErrors.unexpected(t);
        }
    }

    private AttributeValue word(PqToken t) {
        if (t.isWord("TRUE")) {
            return new AttributeValue.Bool(true);
        }
        if (t.isWord("FALSE")) {
            return new AttributeValue.Bool(false);
        }
        if (t.isWord("NULL")) {
            return new AttributeValue.Null();
        }
        throw PqErrors.unexpected(t);
    }

    private AttributeValue symbol(PqToken t, String where, int depth) {
        switch (t.text()) {
            case "?":
                return in.bindParameter();
            case "-":
                return number("-" + in.next().text(), where);
            case "[":
                return list(where, depth);
            case "{":
                return map(where, depth);
            case "<<":
                return set(where, depth);
            default:
                throw PqErrors.unexpected(t);
        }
    }

    private AttributeValue list(String where, int depth) {
        List<AttributeValue> values = new ArrayList<>();
        if (!in.acceptSymbol("]")) {
            do {
                values.add(value(where + "[" + values.size() + "]", depth + 1));
            } while (in.acceptSymbol(","));
            in.expectSymbol("]");
        }
        return new AttributeValue.L(values);
    }

    private AttributeValue map(String where, int depth) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        if (!in.acceptSymbol("}")) {
            do {
                PqToken key = in.next();
                if (key.kind() != PqToken.Kind.STRING && key.kind() != PqToken.Kind.QUOTED) {
                    throw PqErrors.unexpected(key);
                }
                in.expectSymbol(":");
                values.put(key.text(), value(where + "." + key.text(), depth + 1));
            } while (in.acceptSymbol(","));
            in.expectSymbol("}");
        }
        return new AttributeValue.M(values);
    }

    private AttributeValue set(String where, int depth) {
        List<AttributeValue> members = new ArrayList<>();
        if (!in.acceptSymbol(">>")) {
            do {
                members.add(value(where, depth + 1));
            } while (in.acceptSymbol(","));
            in.expectSymbol(">>");
        }
        return toSet(members);
    }

    /** A set of the members' one scalar type; DynamoDB refuses empty, mixed and repeated members. */
    static AttributeValue toSet(List<AttributeValue> members) {
        if (members.isEmpty()) {
            throw PqErrors.validation(PqErrors.EMPTY_SET);
        }
        AttributeType type = members.get(0).type();
        List<String> rendered = new ArrayList<>();
        for (AttributeValue m : members) {
            if (m.type() != type || !(type == AttributeType.S || type == AttributeType.N || type == AttributeType.B)) {
                // UNVERIFIED wording: DynamoDB refuses mixed or non-scalar set members.
                throw PqErrors.validation(
                        "Unsupported data type in a set: sets hold only strings, numbers or binary values");
            }
            rendered.add(display(m));
        }
        if (new LinkedHashSet<>(rendered).size() != rendered.size()) {
            // Observed wording.
            throw DynamoException.invalidParameter("Input collection " + rendered + " contains duplicates.");
        }
        return switch (type) {
            case S ->
                new AttributeValue.SS(members.stream()
                        .map(m -> ((AttributeValue.S) m).value())
                        .toList());
            case N ->
                new AttributeValue.NS(members.stream()
                        .map(m -> ((AttributeValue.N) m).value())
                        .toList());
            default ->
                new AttributeValue.BS(members.stream()
                        .map(m -> ((AttributeValue.B) m).value())
                        .toList());
        };
    }

    private static String display(AttributeValue v) {
        if (v instanceof AttributeValue.S s) {
            return s.value();
        }
        if (v instanceof AttributeValue.N n) {
            return n.value().toString();
        }
        return java.util.Base64.getEncoder().encodeToString(((AttributeValue.B) v).value());
    }

    private static AttributeValue number(String text, String where) {
        try {
            return new AttributeValue.N(DynamoNumber.parse(text));
        } catch (DynamoException e) {
            // Observed: a literal breaking the number rules gets the number message and its place.
            throw PqErrors.validation(e.getMessage() + " under " + where);
        }
    }
}
