package dev.kumiko.tools.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key template such as {@code ROOM#{roomId}} or {@code MESSAGE#{sentAt}#{messageId}}: literal text with
 * named parameters in braces. A template without parameters ({@code METADATA}) is a constant.
 */
public record KeyTemplate(String text, List<String> parameters) {
    private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

    public static KeyTemplate parse(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = PARAMETER.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        String rest = PARAMETER.matcher(text).replaceAll("");
        if (rest.indexOf('{') >= 0 || rest.indexOf('}') >= 0) {
            throw new ModelError("key template \"" + text + "\": a parameter is written {name} (letters, digits, _)");
        }
        return new KeyTemplate(text, List.copyOf(new ArrayList<>(names)));
    }

    /** The text with every parameter replaced by its value; a missing value is a model error. */
    public String render(Map<String, String> values) {
        Matcher m = PARAMETER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new ModelError("key template \"" + text + "\": no value for {" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * A regular expression that matches the key values this template makes: the literal text, each
     * parameter one or more characters of any kind. Written so that Java and JavaScript (without the u
     * flag) read it alike: punctuation escaped with a backslash, letters and digits as they are, so the
     * console's browser code and a Java test agree on what it matches.
     */
    public String regex() {
        StringBuilder out = new StringBuilder("^");
        Matcher m = PARAMETER.matcher(text);
        int literalStart = 0;
        while (m.find()) {
            literal(text.substring(literalStart, m.start()), out);
            out.append("[\\s\\S]+");
            literalStart = m.end();
        }
        literal(text.substring(literalStart), out);
        return out.append('$').toString();
    }

    /** How many characters of the template are literal: more is more specific. */
    public int literalChars() {
        return PARAMETER.matcher(text).replaceAll("").length();
    }

    private static void literal(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c > 0x7f;
            if (!plain) {
                out.append('\\');
            }
            out.append(c);
        }
    }

    /** The literal text before the first parameter: what identifies an entity type in a key. */
    public String prefix() {
        int brace = text.indexOf('{');
        return brace < 0 ? text : text.substring(0, brace);
    }
}
