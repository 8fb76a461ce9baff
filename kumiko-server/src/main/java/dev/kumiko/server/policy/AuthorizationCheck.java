package dev.kumiko.server.policy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One permission a request needs: an IAM action on a resource, with the request's condition keys
 * for it. A request needs one check per table (batches) or per action (transactions) and is
 * refused if any check is.
 *
 * @param action the bare action name, e.g. "GetItem" (the "dynamodb:" prefix is implied)
 * @param resource the resource ARN, or "*" for account-level operations (ListTables, ...)
 * @param keys condition keys by lower-case name; an absent key is not in the request context
 */
public record AuthorizationCheck(String action, String resource, Map<String, List<String>> keys) {
    static final String SERVICE_PREFIX = "dynamodb:";

    public AuthorizationCheck {
        assert action != null && !action.contains(":") && resource != null;
        TreeMap<String, List<String>> copy = new TreeMap<>();
        keys.forEach((k, v) -> copy.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        keys = java.util.Collections.unmodifiableMap(copy);
    }

    public String qualifiedAction() {
        return SERVICE_PREFIX + action;
    }
}
