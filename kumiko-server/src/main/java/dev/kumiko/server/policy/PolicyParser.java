package dev.kumiko.server.policy;

import dev.kumiko.server.json.JsonNumber;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads an IAM policy document (the JSON tree of the credentials file's {@code policy}) into a
 * {@link Policy}, rejecting what IAM's policy validator would reject for an identity-based policy,
 * and what Kumiko cannot evaluate (operators outside the string family and Null), so a policy
 * never silently means less than it says.
 */
final class PolicyParser {
    /** IAM's limit for an inline user policy is 2,048 characters; statements are bounded well above it. */
    static final int STATEMENTS_MAX = 1000;

    private static final Set<String> STATEMENT_ELEMENTS =
            Set.of("Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition");
    private static final String PRINCIPAL = "Principal";
    private static final String ROOT_SUFFIX = ":root";
    private static final String IAM_ARN_PREFIX = "arn:aws:iam::";
    private static final String STS_ARN_PREFIX = "arn:aws:sts::";

    /** Whose policy a document is: a key's (no Principal) or a table's or stream's (Principal required). */
    enum Kind {
        IDENTITY,
        RESOURCE
    }

    private static final String FOR_ALL = "ForAllValues:";
    private static final String FOR_ANY = "ForAnyValue:";
    private static final String IF_EXISTS = "IfExists";

    private PolicyParser() {}

    static Policy parse(@Nullable Object document) {
        return parse(document, Kind.IDENTITY);
    }

    @SuppressWarnings("unchecked")
    static Policy parse(@Nullable Object document, Kind kind) {
        if (!(document instanceof Map)) {
            throw new PolicyException("the policy must be a JSON object");
        }
        Map<String, Object> doc = (Map<String, Object>) document;
        for (String element : doc.keySet()) {
            if (!element.equals("Version") && !element.equals("Statement") && !element.equals("Id")) {
                throw new PolicyException("unknown policy element \"" + element + "\"");
            }
        }
        Object version = doc.getOrDefault("Version", Policy.VERSION_LEGACY);
        if (!Policy.VERSION_CURRENT.equals(version) && !Policy.VERSION_LEGACY.equals(version)) {
            throw new PolicyException("Version must be \"" + Policy.VERSION_CURRENT + "\" or \"" + Policy.VERSION_LEGACY
                    + "\", not " + version);
        }
        List<Object> raw = statements(doc.get("Statement"));
        List<Policy.Statement> statements = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            statements.add(statement(raw.get(i), i, kind));
        }
        return new Policy(Policy.VERSION_CURRENT.equals(version), statements);
    }

    /** An empty list is accepted: a policy that allows nothing (every request implicitly denied). */
    @SuppressWarnings("unchecked")
    private static List<Object> statements(@Nullable Object raw) {
        if (raw instanceof Map) {
            return List.of(raw);
        }
        if (!(raw instanceof List)) {
            throw new PolicyException("Statement must be an object or a list of objects");
        }
        List<Object> list = (List<Object>) raw;
        if (list.size() > STATEMENTS_MAX) {
            throw new PolicyException("more than " + STATEMENTS_MAX + " statements");
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    private static Policy.Statement statement(Object raw, int index, Kind kind) {
        if (!(raw instanceof Map)) {
            throw new PolicyException("Statement[" + index + "] must be an object");
        }
        Map<String, Object> s = (Map<String, Object>) raw;
        String where = "Statement[" + index + "]";
        for (String element : s.keySet()) {
            boolean principal = kind == Kind.RESOURCE && element.equals(PRINCIPAL);
            if (!STATEMENT_ELEMENTS.contains(element) && !principal) {
                throw new PolicyException(where + ": element \"" + element + "\" is not allowed in "
                        + (kind == Kind.RESOURCE ? "a resource-based" : "an identity-based") + " policy");
            }
        }
        Policy.Principals principals = kind == Kind.RESOURCE ? principals(s.get(PRINCIPAL), where) : null;
        Object sid = s.get("Sid");
        if (sid != null && !(sid instanceof String)) {
            throw new PolicyException(where + ": Sid must be a string");
        }
        Policy.Effect effect = effect(s.get("Effect"), where);
        boolean notAction = exactlyOne(s, "Action", "NotAction", where);
        List<String> actionTexts =
                strings(s.get(notAction ? "NotAction" : "Action"), where + "." + (notAction ? "NotAction" : "Action"));
        List<Glob> actions = new ArrayList<>(actionTexts.size());
        for (String a : actionTexts) {
            actions.add(action(a, where));
        }
        boolean notResource = exactlyOne(s, "Resource", "NotResource", where);
        List<String> resources = strings(
                s.get(notResource ? "NotResource" : "Resource"),
                where + "." + (notResource ? "NotResource" : "Resource"));
        List<ConditionClause> conditions = conditions(s.get("Condition"), where);
        return new Policy.Statement(
                (String) sid, effect, notAction, actions, notResource, resources, conditions, principals);
    }

    /**
     * A resource-based statement's Principal: "*", or {"AWS": one or more of "*", an account id,
     * an account's root ARN, an IAM or STS principal ARN}. Service, federated and canonical-user
     * principals name callers Kumiko never has, and a wildcard inside an ARN is not IAM's syntax:
     * refused rather than kept as a statement that can never apply.
     */
    @SuppressWarnings("unchecked")
    private static Policy.Principals principals(@Nullable Object raw, String where) {
        if (raw == null) {
            throw new PolicyException(where + ": a resource-based policy statement needs a Principal");
        }
        if ("*".equals(raw)) {
            return new Policy.Principals(true, Set.of(), Set.of());
        }
        if (!(raw instanceof Map)) {
            throw new PolicyException(where + ": Principal must be \"*\" or an object");
        }
        Map<String, Object> byType = (Map<String, Object>) raw;
        boolean anyone = false;
        Set<String> accounts = new java.util.HashSet<>();
        Set<String> arns = new java.util.HashSet<>();
        for (Map.Entry<String, Object> e : byType.entrySet()) {
            if (!e.getKey().equals("AWS")) {
                throw new PolicyException(where + ": Policy contains invalid principal type \"" + e.getKey()
                        + "\" (Kumiko evaluates AWS principals only)");
            }
            for (String p : strings(e.getValue(), where + ".Principal.AWS")) {
                if (p.equals("*")) {
                    anyone = true;
                } else if (p.matches("[0-9]{12}")) {
                    accounts.add(p);
                } else if (p.startsWith(IAM_ARN_PREFIX) && p.endsWith(ROOT_SUFFIX)) {
                    accounts.add(p.substring(IAM_ARN_PREFIX.length(), p.length() - ROOT_SUFFIX.length()));
                } else if ((p.startsWith(IAM_ARN_PREFIX) || p.startsWith(STS_ARN_PREFIX))
                        && p.indexOf('*') < 0
                        && p.indexOf('?') < 0) {
                    arns.add(p);
                } else {
                    throw new PolicyException(where + ": Policy contains an invalid principal: " + p);
                }
            }
        }
        if (byType.isEmpty()) {
            throw new PolicyException(where + ": Principal must name at least one principal");
        }
        return new Policy.Principals(anyone, accounts, arns);
    }

    private static Policy.Effect effect(@Nullable Object raw, String where) {
        if ("Allow".equals(raw)) {
            return Policy.Effect.ALLOW;
        }
        if ("Deny".equals(raw)) {
            return Policy.Effect.DENY;
        }
        throw new PolicyException(where + ": Effect must be \"Allow\" or \"Deny\"");
    }

    /** True when the Not- form is present; exactly one of the two must be. */
    private static boolean exactlyOne(Map<String, Object> s, String element, String negated, String where) {
        boolean plain = s.containsKey(element);
        boolean not = s.containsKey(negated);
        if (plain == not) {
            throw new PolicyException(where + ": exactly one of " + element + " and " + negated + " is required");
        }
        return not;
    }

    private static Glob action(String text, String where) {
        if (!text.equals("*") && text.indexOf(':') <= 0) {
            throw new PolicyException(where + ": action \"" + text + "\" must be \"*\" or \"service:action\"");
        }
        return Glob.wildcards(text);
    }

    @SuppressWarnings("unchecked")
    private static List<ConditionClause> conditions(@Nullable Object raw, String where) {
        if (raw == null) {
            return List.of();
        }
        if (!(raw instanceof Map)) {
            throw new PolicyException(where + ": Condition must be an object");
        }
        List<ConditionClause> out = new ArrayList<>();
        for (Map.Entry<String, Object> byOperator : ((Map<String, Object>) raw).entrySet()) {
            String op = byOperator.getKey();
            if (!(byOperator.getValue() instanceof Map)) {
                throw new PolicyException(where + ": Condition." + op + " must be an object of condition keys");
            }
            for (Map.Entry<String, Object> byKey : ((Map<String, Object>) byOperator.getValue()).entrySet()) {
                out.add(clause(op, byKey.getKey(), byKey.getValue(), where));
            }
        }
        return out;
    }

    private static ConditionClause clause(String operatorText, String key, Object rawValues, String where) {
        String rest = operatorText;
        ConditionClause.SetQualifier qualifier = ConditionClause.SetQualifier.NONE;
        if (rest.startsWith(FOR_ALL)) {
            qualifier = ConditionClause.SetQualifier.FOR_ALL_VALUES;
            rest = rest.substring(FOR_ALL.length());
        } else if (rest.startsWith(FOR_ANY)) {
            qualifier = ConditionClause.SetQualifier.FOR_ANY_VALUE;
            rest = rest.substring(FOR_ANY.length());
        }
        boolean ifExists = rest.endsWith(IF_EXISTS) && !rest.equals(IF_EXISTS);
        if (ifExists) {
            rest = rest.substring(0, rest.length() - IF_EXISTS.length());
        }
        ConditionClause.Operator operator = ConditionClause.Operator.named(rest);
        if (operator == null
                || (operator == ConditionClause.Operator.NULL
                        && (ifExists || qualifier != ConditionClause.SetQualifier.NONE))) {
            throw new PolicyException(where + ": condition operator \"" + operatorText + "\" is not supported "
                    + "(Kumiko evaluates StringEquals, StringNotEquals, StringEqualsIgnoreCase, "
                    + "StringNotEqualsIgnoreCase, StringLike, StringNotLike, their IfExists forms, "
                    + "ForAllValues:/ForAnyValue:, and Null)");
        }
        List<String> values = strings(rawValues, where + ": Condition." + operatorText + "." + key);
        if (operator == ConditionClause.Operator.NULL) {
            for (String v : values) {
                if (!v.equals("true") && !v.equals("false")) {
                    throw new PolicyException(where + ": Null condition values must be \"true\" or \"false\"");
                }
            }
        }
        return new ConditionClause(operator, qualifier, ifExists, key, values);
    }

    /** A string, or a non-empty list of strings; numbers and booleans are taken as their text, as IAM does. */
    @SuppressWarnings("unchecked")
    private static List<String> strings(@Nullable Object raw, String where) {
        List<Object> items = raw instanceof List ? (List<Object>) raw : raw == null ? List.of() : List.of(raw);
        if (items.isEmpty()) {
            throw new PolicyException(where + " must be a string or a non-empty list of strings");
        }
        List<String> out = new ArrayList<>(items.size());
        for (Object o : items) {
            out.add(scalar(o, where));
        }
        return out;
    }

    private static String scalar(Object o, String where) {
        if (o instanceof String s) {
            return s;
        }
        if (o instanceof JsonNumber n) {
            return n.text();
        }
        if (o instanceof Boolean b) {
            return b.toString();
        }
        throw new PolicyException(where + " must hold strings only");
    }
}
