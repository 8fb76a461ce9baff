package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeNames;
import dev.kumiko.model.AttributeValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * All expressions of one request, validated together in DynamoDB's order and bound to the
 * request's ExpressionAttributeNames / ExpressionAttributeValues. Build with {@link #builder()}.
 *
 * <p>Order: (1) empty maps, (2) names/values without any expression, (3) placeholder key syntax,
 * (4) per expression in the order key condition, filter, projection, update, condition: empty
 * text, size, syntax (with reserved words), undefined placeholders, operand types, update paths,
 * key attributes; (5) unused names, then unused values.
 */
public final class RequestExpressions {
    /**
     * A request without any expression (most GetItem, PutItem and DeleteItem calls): nothing to
     * parse or check, so every such request shares this one instance instead of building its own.
     */
    private static final RequestExpressions NONE = new RequestExpressions(new Builder(), Map.of(), Map.of());

    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;
    private final @Nullable Condition keyCondition;
    private final @Nullable Condition filter;
    private final @Nullable ProjectionExpression projection;
    private final @Nullable UpdateExpression update;
    private final @Nullable Condition condition;

    private RequestExpressions(Builder b, Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names;
        this.values = values;
        Set<String> usedNames = new LinkedHashSet<>();
        Set<String> usedValues = new LinkedHashSet<>();
        this.keyCondition = conditionOf(b.keyCondition, ExpressionKind.KEY_CONDITION, usedNames, usedValues);
        this.filter = conditionOf(b.filter, b.filterKind, usedNames, usedValues);
        this.projection = projectionOf(b.projection, usedNames, usedValues);
        this.update = updateOf(b.update, b.keyAttributeNames, usedNames, usedValues);
        this.condition = conditionOf(b.condition, ExpressionKind.CONDITION, usedNames, usedValues);
        checkUnused("ExpressionAttributeNames", names.keySet(), usedNames);
        checkUnused("ExpressionAttributeValues", values.keySet(), usedValues);
    }

    public static Builder builder() {
        return new Builder();
    }

    private @Nullable Condition conditionOf(
            @Nullable String text, ExpressionKind kind, Set<String> usedNames, Set<String> usedValues) {
        if (text == null) {
            return null;
        }
        Condition c = ExpressionParser.condition(text, kind);
        new PlaceholderCheck(kind, names, values, usedNames, usedValues).condition(c);
        new TypeCheck(kind, values).condition(c);
        new DistinctOperands(kind, names).condition(c);
        return c;
    }

    private @Nullable ProjectionExpression projectionOf(
            @Nullable String text, Set<String> usedNames, Set<String> usedValues) {
        if (text == null) {
            return null;
        }
        ProjectionExpression p = ExpressionParser.projection(text);
        new PlaceholderCheck(ExpressionKind.PROJECTION, names, values, usedNames, usedValues).projection(p);
        UpdatePathCheck.checkProjection(p, names);
        return p;
    }

    private @Nullable UpdateExpression updateOf(
            @Nullable String text, Collection<String> keyNames, Set<String> usedNames, Set<String> usedValues) {
        if (text == null) {
            return null;
        }
        UpdateExpression u = ExpressionParser.update(text);
        new PlaceholderCheck(ExpressionKind.UPDATE, names, values, usedNames, usedValues).update(u);
        new TypeCheck(ExpressionKind.UPDATE, values).update(u);
        UpdatePathCheck.check(u, names, keyNames);
        return u;
    }

    private static void checkUnused(String parameter, Set<String> provided, Set<String> used) {
        List<String> unused = new ArrayList<>();
        for (String key : provided) {
            if (!used.contains(key)) {
                unused.add(key);
            }
        }
        if (!unused.isEmpty()) {
            // Key order inside the braces is the request's order; DynamoDB's own order is unverified.
            throw DynamoException.validation("Value provided in " + parameter + " unused in expressions: keys: {"
                    + String.join(", ", unused) + "}");
        }
    }

    public boolean hasCondition() {
        return condition != null;
    }

    public boolean hasFilter() {
        return filter != null;
    }

    public boolean hasProjection() {
        return projection != null;
    }

    public boolean hasUpdate() {
        return update != null;
    }

    /** The update only removes attributes (it can change nothing on an item that does not exist). */
    public boolean updateOnlyRemoves() {
        return update != null && onlyRemoves(update);
    }

    static boolean onlyRemoves(UpdateExpression u) {
        for (UpdateAction a : u.actions()) {
            if (!(a instanceof UpdateAction.Remove)) {
                return false;
            }
        }
        return true;
    }

    /** ConditionExpression holds for the item (an absent item is the empty map); true if none given. */
    public boolean testCondition(Map<String, AttributeValue> item) {
        return condition == null || new ConditionEvaluator(names, values).test(condition, item);
    }

    /** FilterExpression holds for the item; true if none given. */
    public boolean testFilter(Map<String, AttributeValue> item) {
        return filter == null || new ConditionEvaluator(names, values).test(filter, item);
    }

    /** The projected sub-document; the whole item if no ProjectionExpression was given. */
    public Map<String, AttributeValue> project(Map<String, AttributeValue> item) {
        if (projection == null) {
            return item;
        }
        List<Operand.Path> resolved = new ArrayList<>();
        for (Operand.Path p : projection.paths()) {
            resolved.add(p.resolve(names));
        }
        return Projector.project(item, resolved);
    }

    /** Top-level attribute names the FilterExpression reads (to refuse key attributes in Query). */
    public Set<String> filterTopLevelNames() {
        return filter == null ? Set.of() : ConditionPaths.of(filter, names, new LinkedHashSet<>());
    }

    /** Top-level attribute names the projection reads (for index projections and capacity). */
    public Set<String> projectedTopLevelNames() {
        Set<String> out = new LinkedHashSet<>();
        if (projection != null) {
            for (Operand.Path p : projection.paths()) {
                out.add(p.resolve(names).firstName());
            }
        }
        return out;
    }

    /**
     * The top-level attributes of every nested path (a.b, a[0]) the condition, filter, projection
     * and update name, in that order: a key attribute is a scalar, so such a path on one is refused.
     */
    public Set<String> nestedPathTopLevelNames() {
        if (this == NONE) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        java.util.function.Consumer<Operand> leaf = o -> {
            if (o instanceof Operand.Path p && p.elements().size() > 1) {
                out.add(p.resolve(names).firstName());
            }
        };
        for (Condition c : new Condition[] {condition, filter}) {
            if (c != null) {
                OperandWalk.conditionOperands(c, o -> OperandWalk.leaves(o, leaf));
            }
        }
        if (projection != null) {
            projection.paths().forEach(leaf);
        }
        if (update != null) {
            update.actions().forEach(a -> leaf.accept(a.path()));
        }
        return out;
    }

    /**
     * Refuses an UpdateExpression that touches a key attribute, for callers that parse before they
     * know the table (a transaction reports bad expressions before unknown tables).
     */
    public void checkUpdateKeys(Collection<String> keyAttributeNames) {
        if (update != null) {
            UpdatePathCheck.checkKeys(update, names, keyAttributeNames);
        }
    }

    /** Applies the UpdateExpression to {@code item} (the empty map when the item is new). */
    public UpdateResult applyUpdate(Map<String, AttributeValue> item) {
        if (update == null) {
            throw new IllegalStateException("no UpdateExpression in this request");
        }
        return new UpdateApplier(names, values).apply(update, item);
    }

    /** The key condition split for a key schema; sortKeyName is null for a hash-only key. */
    /** The key condition for a key schema's HASH and RANGE attribute names (RANGE may be empty). */
    public KeyCondition keyCondition(List<String> partitionKeyNames, List<String> sortKeyNames) {
        if (keyCondition == null) {
            throw new IllegalStateException("no KeyConditionExpression in this request");
        }
        return KeyCondition.extract(keyCondition, names, values, partitionKeyNames, sortKeyNames);
    }

    public static final class Builder {
        private @Nullable String condition;
        private @Nullable String filter;
        private ExpressionKind filterKind = ExpressionKind.FILTER;
        private @Nullable String keyCondition;
        private @Nullable String projection;
        private @Nullable String update;
        private @Nullable Map<String, String> names;
        private @Nullable Map<String, AttributeValue> values;
        private Collection<String> keyAttributeNames = List.of();

        public Builder conditionExpression(@Nullable String text) {
            this.condition = text;
            return this;
        }

        public Builder filterExpression(@Nullable String text) {
            this.filter = text;
            return this;
        }

        /** SearchVectors' filter: evaluated as a FilterExpression, named SearchConditionExpression in errors. */
        public Builder searchConditionExpression(@Nullable String text) {
            this.filter = text;
            this.filterKind = ExpressionKind.SEARCH_CONDITION;
            return this;
        }

        public Builder keyConditionExpression(@Nullable String text) {
            this.keyCondition = text;
            return this;
        }

        public Builder projectionExpression(@Nullable String text) {
            this.projection = text;
            return this;
        }

        public Builder updateExpression(@Nullable String text) {
            this.update = text;
            return this;
        }

        /** ExpressionAttributeNames as sent; null when absent (distinct from empty, which is an error). */
        public Builder expressionAttributeNames(@Nullable Map<String, String> names) {
            this.names = names;
            return this;
        }

        public Builder expressionAttributeValues(@Nullable Map<String, AttributeValue> values) {
            this.values = values;
            return this;
        }

        /** The table's key attribute names, which an UpdateExpression may not touch. */
        public Builder keyAttributeNames(Collection<String> keyAttributeNames) {
            this.keyAttributeNames = List.copyOf(keyAttributeNames);
            return this;
        }

        public RequestExpressions build() {
            if (names != null && names.isEmpty()) {
                throw DynamoException.validation("ExpressionAttributeNames must not be empty");
            }
            if (values != null && values.isEmpty()) {
                throw DynamoException.validation("ExpressionAttributeValues must not be empty");
            }
            boolean anyExpression =
                    condition != null || filter != null || keyCondition != null || projection != null || update != null;
            if (!anyExpression && names != null) {
                throw DynamoException.validation(
                        "ExpressionAttributeNames can only be specified when using expressions");
            }
            if (!anyExpression && values != null) {
                throw DynamoException.validation(
                        "ExpressionAttributeValues can only be specified when using expressions");
            }
            if (!anyExpression) {
                return NONE; // names and values are absent too (checked above)
            }
            Map<String, String> n = names == null ? Map.of() : names;
            Map<String, AttributeValue> v = values == null ? Map.of() : values;
            checkKeys("ExpressionAttributeNames", n.keySet(), '#');
            checkNameValues(n);
            checkKeys("ExpressionAttributeValues", v.keySet(), ':');
            return new RequestExpressions(this, n, v);
        }

        /**
         * A placeholder stands for an attribute name, held to the names' rule: an empty one in Kumiko's
         * wording (UNVERIFIED), one over 65,535 bytes as DynamoDB was captured answering it.
         */
        private static void checkNameValues(Map<String, String> names) {
            for (Map.Entry<String, String> e : names.entrySet()) {
                if (e.getValue().isEmpty()) {
                    throw DynamoException.validation("ExpressionAttributeNames contains invalid value: "
                            + AttributeNames.EMPTY + " for key " + e.getKey());
                }
                if (AttributeNames.tooLarge(e.getValue())) {
                    throw DynamoException.validation(AttributeNames.TOO_LARGE);
                }
            }
        }

        private static void checkKeys(String parameter, Set<String> keys, char sigil) {
            for (String key : keys) {
                if (!isPlaceholder(key, sigil)) {
                    // Wording recalled from DynamoDB; not verified in sources.
                    throw DynamoException.validation(
                            parameter + " contains invalid key: Syntax error; key: \"" + key + "\"");
                }
            }
        }

        /** sigil, then one or more of [A-Za-z0-9_]: a placeholder's syntax ("#name", ":value1"). */
        static boolean isPlaceholder(String key, char sigil) {
            if (key.length() < 2 || key.charAt(0) != sigil) {
                return false;
            }
            for (int i = 1; i < key.length(); i++) {
                char c = key.charAt(i);
                boolean word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                if (!word) {
                    return false;
                }
            }
            return true;
        }
    }
}
