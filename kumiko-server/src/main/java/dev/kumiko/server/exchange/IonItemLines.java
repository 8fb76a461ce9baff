package dev.kumiko.server.exchange;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Amazon Ion text lines as DynamoDB exports them: {@code $ion_1_0 {Item:{pk:"a",n:1.,b:{{AQI=}},
 * s:$dynamodb_SS::["x"]}}}. Strings are Ion strings, numbers Ion decimals, binary Ion blobs, maps
 * structs, lists lists; the three set types are lists annotated {@code $dynamodb_SS}, {@code _NS},
 * {@code _BS}. Reading accepts any Ion text of these types ({@link IonTextReader}).
 */
final class IonItemLines implements ItemLineFormat {
    static final String VERSION_MARKER = "$ion_1_0";
    /** Ion's keywords, which an unquoted field name must not be. */
    private static final Set<String> KEYWORDS = Set.of("null", "true", "false", "nan");
    /** Decimal exponents written in plain form; beyond these the d-notation keeps lines short. */
    private static final int PLAIN_SCALE_MAX = 40;

    @Override
    public String write(Map<String, AttributeValue> item) {
        StringBuilder b = new StringBuilder(VERSION_MARKER).append(" {Item:");
        struct(b, item);
        return b.append('}').toString();
    }

    /**
     * {@code $ion_1_0 {Metadata:{WriteTimestampMicros:N},Keys:{..},OldImage:{..},NewImage:{..}}}; the
     * timestamp as an Ion integer (UNVERIFIED: no sample of DynamoDB's Ion incremental output).
     */
    @Override
    public String writeChange(
            long writeTimestampMicros,
            Map<String, AttributeValue> keys,
            @Nullable Map<String, AttributeValue> oldImage,
            @Nullable Map<String, AttributeValue> newImage) {
        StringBuilder b = new StringBuilder(VERSION_MARKER)
                .append(" {Metadata:{WriteTimestampMicros:")
                .append(writeTimestampMicros)
                .append("},Keys:");
        struct(b, keys);
        if (oldImage != null) {
            b.append(",OldImage:");
            struct(b, oldImage);
        }
        if (newImage != null) {
            b.append(",NewImage:");
            struct(b, newImage);
        }
        return b.append('}').toString();
    }

    @Override
    public Map<String, AttributeValue> read(String line) {
        return new IonTextReader(line).item();
    }

    @Override
    public String fileExtension() {
        return ".ion";
    }

    private static void struct(StringBuilder b, Map<String, AttributeValue> m) {
        b.append('{');
        boolean first = true;
        for (Map.Entry<String, AttributeValue> e : m.entrySet()) {
            if (!first) {
                b.append(',');
            }
            first = false;
            fieldName(b, e.getKey());
            b.append(':');
            value(b, e.getValue());
        }
        b.append('}');
    }

    private static void value(StringBuilder b, AttributeValue v) {
        switch (v.type()) {
            case S -> string(b, ((AttributeValue.S) v).value(), '"');
            case N -> decimal(b, ((AttributeValue.N) v).value());
            case B -> blob(b, ((AttributeValue.B) v).value());
            case SS -> {
                b.append("$dynamodb_SS::[");
                java.util.List<String> values = ((AttributeValue.SS) v).values();
                for (int i = 0; i < values.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    string(b, values.get(i), '"');
                }
                b.append(']');
            }
            case NS -> {
                b.append("$dynamodb_NS::[");
                java.util.List<DynamoNumber> values = ((AttributeValue.NS) v).values();
                for (int i = 0; i < values.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    decimal(b, values.get(i));
                }
                b.append(']');
            }
            case BS -> {
                b.append("$dynamodb_BS::[");
                java.util.List<byte[]> values = ((AttributeValue.BS) v).values();
                for (int i = 0; i < values.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    blob(b, values.get(i));
                }
                b.append(']');
            }
            case M -> struct(b, ((AttributeValue.M) v).values());
            case L -> {
                b.append('[');
                java.util.List<AttributeValue> values = ((AttributeValue.L) v).values();
                for (int i = 0; i < values.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    value(b, values.get(i));
                }
                b.append(']');
            }
            case NULL -> b.append("null");
            case BOOL -> b.append(((AttributeValue.Bool) v).value());
        }
    }

    /** An Ion decimal: a point makes it one ({@code 1.} is a decimal, {@code 1} an int). */
    private static void decimal(StringBuilder b, DynamoNumber n) {
        BigDecimal d = n.value();
        if (Math.abs(d.scale()) <= PLAIN_SCALE_MAX) {
            String plain = d.toPlainString();
            b.append(plain);
            if (plain.indexOf('.') < 0) {
                b.append('.');
            }
        } else {
            b.append(d.unscaledValue()).append('d').append(-d.scale());
        }
    }

    private static void blob(StringBuilder b, byte[] bytes) {
        b.append("{{").append(Base64.getEncoder().encodeToString(bytes)).append("}}");
    }

    private static void fieldName(StringBuilder b, String name) {
        if (isIdentifier(name)) {
            b.append(name);
        } else {
            string(b, name, '\'');
        }
    }

    private static boolean isIdentifier(String s) {
        if (s.isEmpty() || KEYWORDS.contains(s) || Character.isDigit(s.charAt(0))) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$')) {
                return false;
            }
        }
        // $ followed by digits names a symbol id in Ion, not a symbol; quote those.
        return !(s.charAt(0) == '$' && s.length() > 1 && Character.isDigit(s.charAt(1)));
    }

    static void string(StringBuilder b, String s, char quote) {
        b.append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c == quote) {
                        b.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append(quote);
    }
}
