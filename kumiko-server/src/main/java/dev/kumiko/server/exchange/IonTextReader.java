package dev.kumiko.server.exchange;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads one item from Amazon Ion text: {@code [$ion_1_0] {Item:{...}}}. Ion's types map to
 * DynamoDB's as exports write them: string and symbol to S, int, decimal and float to N, blob to
 * B, bool, null, list to L (to SS, NS or BS when annotated {@code $dynamodb_SS} ...), struct to M.
 * Clobs, timestamps and s-expressions have no DynamoDB type and are refused, as is nesting deeper
 * than {@link #DEPTH_MAX}. Errors are IllegalArgumentException with the offset in the line.
 */
final class IonTextReader {
    /** DynamoDB's nesting limit for lists and maps. */
    static final int DEPTH_MAX = 32;

    private final String s;
    private int pos;

    IonTextReader(String text) {
        this.s = text;
    }

    Map<String, AttributeValue> item() {
        skipSpace();
        if (s.startsWith(IonItemLines.VERSION_MARKER, pos)) {
            pos += IonItemLines.VERSION_MARKER.length();
            skipSpace();
        }
        if (peek() != '{') {
            throw fail("expected a struct {Item:{...}}");
        }
        Object top = value(0);
        skipSpace();
        if (pos < s.length()) {
            throw fail("unexpected text after the item");
        }
        if (!(top instanceof AttributeValue.M m) || !(m.values().get("Item") instanceof AttributeValue.M item)) {
            throw fail("the struct has no Item struct");
        }
        return item.values();
    }

    private AttributeValue value(int depth) {
        if (depth > DEPTH_MAX) {
            throw fail("nesting deeper than " + DEPTH_MAX + " levels");
        }
        skipSpace();
        String annotation = annotation();
        char c = peek();
        if (c == '{' && s.startsWith("{{", pos)) {
            return new AttributeValue.B(blob());
        }
        if (c == '{') {
            return struct(depth);
        }
        if (c == '[') {
            return list(annotation, depth);
        }
        if (c == '"' || s.startsWith("'''", pos)) {
            return new AttributeValue.S(string());
        }
        if (c == '\'') {
            return new AttributeValue.S(quoted('\''));
        }
        if (c == '-' || c == '+' || Character.isDigit(c)) {
            return new AttributeValue.N(number(numberToken()));
        }
        if (isIdentifierStart(c)) {
            return keyword(token());
        }
        throw fail("unexpected character '" + c + "'");
    }

    /** The annotation before a value ({@code name::}), or null; only the last one matters here. */
    private @Nullable String annotation() {
        String found = null;
        while (true) {
            int mark = pos;
            String name = null;
            if (peek() == '\'' && !s.startsWith("'''", pos)) {
                name = quoted('\'');
            } else if (isIdentifierStart(peek())) {
                name = token();
            }
            skipSpace();
            if (name != null && s.startsWith("::", pos)) {
                pos += 2;
                skipSpace();
                found = name;
            } else {
                pos = mark;
                return found;
            }
        }
    }

    private AttributeValue struct(int depth) {
        pos++;
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        while (true) {
            skipSpace();
            if (peek() == '}') {
                pos++;
                return new AttributeValue.M(Collections.unmodifiableMap(m));
            }
            String name = fieldName();
            skipSpace();
            expect(':');
            m.put(name, value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else if (peek() != '}') {
                throw fail("expected ',' or '}' in a struct");
            }
        }
    }

    private String fieldName() {
        char c = peek();
        if (c == '"' || s.startsWith("'''", pos)) {
            return string();
        }
        if (c == '\'') {
            return quoted('\'');
        }
        if (isIdentifierStart(c)) {
            return token();
        }
        throw fail("expected a field name");
    }

    private AttributeValue list(@Nullable String annotation, int depth) {
        pos++;
        List<AttributeValue> values = new ArrayList<>();
        while (true) {
            skipSpace();
            if (peek() == ']') {
                pos++;
                break;
            }
            values.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else if (peek() != ']') {
                throw fail("expected ',' or ']' in a list");
            }
        }
        return annotation == null ? new AttributeValue.L(values) : set(annotation, values);
    }

    private AttributeValue set(String annotation, List<AttributeValue> values) {
        switch (annotation) {
            case "$dynamodb_SS" -> {
                List<String> members = new ArrayList<>();
                values.forEach(
                        v -> members.add(member(v, AttributeValue.S.class).value()));
                return new AttributeValue.SS(members);
            }
            case "$dynamodb_NS" -> {
                List<DynamoNumber> members = new ArrayList<>();
                values.forEach(
                        v -> members.add(member(v, AttributeValue.N.class).value()));
                return new AttributeValue.NS(members);
            }
            case "$dynamodb_BS" -> {
                List<byte[]> members = new ArrayList<>();
                values.forEach(
                        v -> members.add(member(v, AttributeValue.B.class).value()));
                return new AttributeValue.BS(members);
            }
            default -> {
                return new AttributeValue.L(values);
            }
        }
    }

    private <T extends AttributeValue> T member(AttributeValue v, Class<T> type) {
        if (!type.isInstance(v)) {
            throw fail("a set member of the wrong type: " + v.type());
        }
        return type.cast(v);
    }

    private byte[] blob() {
        int end = s.indexOf("}}", pos + 2);
        if (end < 0) {
            throw fail("unterminated blob");
        }
        String body = s.substring(pos + 2, end).replaceAll("\\s", "");
        if (body.startsWith("\"") || body.startsWith("'")) {
            throw fail("clobs have no DynamoDB type");
        }
        pos = end + 2;
        try {
            return Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw fail("a blob that is not base64");
        }
    }

    /** A "string", or adjacent '''long''' strings joined. */
    private String string() {
        if (peek() == '"') {
            return quoted('"');
        }
        StringBuilder b = new StringBuilder();
        while (s.startsWith("'''", pos)) {
            pos += 3;
            b.append(until("'''"));
            int mark = pos;
            skipSpace();
            if (!s.startsWith("'''", pos)) {
                pos = mark;
            }
        }
        return b.toString();
    }

    private String quoted(char quote) {
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw fail("unterminated string");
            }
            char c = s.charAt(pos++);
            if (c == quote) {
                return b.toString();
            }
            if (c == '\\') {
                escape(b);
            } else {
                b.append(c);
            }
        }
    }

    private String until(String end) {
        StringBuilder b = new StringBuilder();
        while (!s.startsWith(end, pos)) {
            if (pos >= s.length()) {
                throw fail("unterminated long string");
            }
            char c = s.charAt(pos++);
            if (c == '\\') {
                escape(b);
            } else {
                b.append(c);
            }
        }
        pos += end.length();
        return b.toString();
    }

    private void escape(StringBuilder b) {
        if (pos >= s.length()) {
            throw fail("unterminated escape");
        }
        char e = s.charAt(pos++);
        switch (e) {
            case 'n' -> b.append('\n');
            case 'r' -> b.append('\r');
            case 't' -> b.append('\t');
            case '0' -> b.append('\0');
            case 'a' -> b.append('\u0007');
            case 'b' -> b.append('\b');
            case 'f' -> b.append('\f');
            case 'v' -> b.append('\u000b');
            case 'x' -> b.appendCodePoint(hex(2));
            case 'u' -> b.appendCodePoint(hex(4));
            case 'U' -> b.appendCodePoint(hex(8));
            case '\n' -> {} // a line continuation
            default -> b.append(e); // \\ \" \' \/ \?
        }
    }

    private int hex(int digits) {
        if (pos + digits > s.length()) {
            throw fail("a short escape");
        }
        try {
            int cp = Integer.parseInt(s.substring(pos, pos + digits), 16);
            pos += digits;
            return cp;
        } catch (NumberFormatException e) {
            throw fail("a bad escape");
        }
    }

    private DynamoNumber number(String t) {
        String text = t.replace("_", "");
        try {
            BigDecimal d;
            String unsigned = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
            boolean negative = text.startsWith("-");
            if (unsigned.startsWith("0x") || unsigned.startsWith("0X")) {
                d = new BigDecimal(new BigInteger(unsigned.substring(2), 16));
            } else if (unsigned.startsWith("0b") || unsigned.startsWith("0B")) {
                d = new BigDecimal(new BigInteger(unsigned.substring(2), 2));
            } else if (unsigned.contains("T") || unsigned.matches("\\d{4}-.*")) {
                throw fail("timestamps have no DynamoDB type");
            } else {
                d = new BigDecimal(unsigned.replace('d', 'E').replace('D', 'E'));
            }
            return DynamoNumber.of(negative ? d.negate() : d);
        } catch (NumberFormatException e) {
            throw fail("not a number: " + t);
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw fail("number " + t + ": " + e.getMessage());
        }
    }

    private AttributeValue keyword(String word) {
        switch (word) {
            case "true" -> {
                return AttributeValue.TRUE;
            }
            case "false" -> {
                return AttributeValue.FALSE;
            }
            case "null" -> {
                if (peek() == '.') { // null.string and the like: a typed null is still NULL
                    pos++;
                    token();
                }
                return AttributeValue.NULL;
            }
            case "nan" -> throw fail("nan is not a DynamoDB number");
            default -> {
                return new AttributeValue.S(word); // a symbol
            }
        }
    }

    /** An identifier: letters, digits, '_' and '$'. */
    private String token() {
        int start = pos;
        while (pos < s.length()
                && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_' || s.charAt(pos) == '$')) {
            pos++;
        }
        return s.substring(start, pos);
    }

    /** A number's text (timestamps too, which are then refused). */
    private String numberToken() {
        int start = pos;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '+' || c == '-' || c == ':')) {
                break;
            }
            pos++;
        }
        return s.substring(start, pos);
    }

    private static boolean isIdentifierStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '$';
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (s.startsWith("//", pos)) {
                int nl = s.indexOf('\n', pos);
                pos = nl < 0 ? s.length() : nl + 1;
            } else if (s.startsWith("/*", pos)) {
                int end = s.indexOf("*/", pos + 2);
                pos = end < 0 ? s.length() : end + 2;
            } else {
                return;
            }
        }
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw fail("expected '" + c + "'");
        }
        pos++;
    }

    private IllegalArgumentException fail(String why) {
        return new IllegalArgumentException("Ion text at offset " + pos + ": " + why);
    }
}
