package dev.kumiko.server.policy;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Substitutes IAM policy variables in a Resource or a condition value: {@code ${aws:PrincipalTag/x}}
 * and the other keys {@link Caller} knows, {@code ${key, 'default'}}, and the escapes {@code ${*}},
 * {@code ${?}}, {@code ${$}} for a literal character. Version 2008-10-17 has no variables, so there
 * the text is taken as written.
 */
final class PolicyVariables {
    private PolicyVariables() {}

    /**
     * The compiled pattern, or null when a variable has no value and no default: IAM then treats
     * the element as matching nothing.
     *
     * @param wildcards whether unescaped {@code *} and {@code ?} are wildcards (Resource, *Like)
     * @param variables null for a 2008-10-17 policy (no substitution)
     */
    static @Nullable Glob compile(String raw, boolean wildcards, @Nullable Function<String, String> variables) {
        Glob.Builder b = new Glob.Builder();
        if (variables == null) {
            if (!raw.isEmpty()) {
                append(b, raw, wildcards);
            }
            return b.build();
        }
        int i = 0;
        while (i < raw.length()) {
            int start = raw.indexOf("${", i);
            int end = start < 0 ? -1 : raw.indexOf('}', start);
            if (end < 0) {
                append(b, raw.substring(i), wildcards);
                break;
            }
            append(b, raw.substring(i, start), wildcards);
            String value = resolve(raw.substring(start + 2, end), variables);
            if (value == null) {
                return null;
            }
            b.literal(value);
            i = end + 1;
        }
        return b.build();
    }

    private static void append(Glob.Builder b, String text, boolean wildcards) {
        if (wildcards) {
            b.withWildcards(text);
        } else {
            b.literal(text);
        }
    }

    private static @Nullable String resolve(String inside, Function<String, String> variables) {
        String body = inside.trim();
        if (body.equals("*") || body.equals("?") || body.equals("$")) {
            return body;
        }
        String fallback = null;
        int comma = body.indexOf(',');
        if (comma >= 0) {
            fallback = unquote(body.substring(comma + 1).trim());
            body = body.substring(0, comma).trim();
        }
        String value = variables.apply(body);
        return value != null ? value : fallback;
    }

    /** The default of {@code ${key, 'default'}}: single-quoted; anything else is no default. */
    private static @Nullable String unquote(String s) {
        if (s.length() >= 2 && s.startsWith("'") && s.endsWith("'")) {
            return s.substring(1, s.length() - 1);
        }
        return null;
    }
}
