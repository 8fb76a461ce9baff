package dev.kumiko.engine.read;

import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.LegacyExpressions;
import dev.kumiko.expr.ProjectionExpression;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.Select;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a Query or Scan does with each item it reads: the filter, the projection, whether only
 * counts are returned. Built from either the expression members or the legacy ones, never both.
 */
final class ReadShape {
    private final RequestExpressions expr;
    private final @Nullable Condition legacyFilter;
    private final @Nullable ProjectionExpression legacyProjection;
    private final boolean countOnly;
    private final @Nullable List<String> attributesToGet;

    private ReadShape(
            RequestExpressions expr,
            @Nullable Condition legacyFilter,
            @Nullable ProjectionExpression legacyProjection,
            boolean countOnly,
            @Nullable List<String> attributesToGet) {
        this.expr = expr;
        this.legacyFilter = legacyFilter;
        this.legacyProjection = legacyProjection;
        this.countOnly = countOnly;
        this.attributesToGet = attributesToGet;
    }

    /** Validates Select and the style of the members, then parses the expressions once. */
    static ReadShape of(
            ReadRequests.Common r,
            @Nullable String keyConditionExpression,
            boolean hasKeyConditions,
            String legacyFilterName) {
        checkNotMixed(r, keyConditionExpression, hasKeyConditions, legacyFilterName);
        LegacyExpressions.checkConditionalOperator(r.conditionalOperator(), r.legacyFilter());
        LegacyExpressions.checkAttributesToGet(r.attributesToGet());
        checkSelect(r, "QueryFilter".equals(legacyFilterName));
        RequestExpressions expr = RequestExpressions.builder()
                .keyConditionExpression(keyConditionExpression)
                .filterExpression(r.filterExpression())
                .projectionExpression(r.projectionExpression())
                .expressionAttributeNames(r.expressionAttributeNames())
                .expressionAttributeValues(r.expressionAttributeValues())
                .build();
        Condition legacy =
                r.legacyFilter() == null ? null : LegacyExpressions.filter(r.legacyFilter(), r.conditionalOperator());
        ProjectionExpression legacyProjection =
                r.attributesToGet() == null ? null : LegacyExpressions.attributesToGet(r.attributesToGet());
        return new ReadShape(expr, legacy, legacyProjection, r.select() == Select.COUNT, r.attributesToGet());
    }

    private static void checkNotMixed(
            ReadRequests.Common r,
            @Nullable String keyConditionExpression,
            boolean hasKeyConditions,
            String legacyFilterName) {
        List<String> legacy = new ArrayList<>();
        List<String> expressions = new ArrayList<>();
        addIf(legacy, r.attributesToGet() != null, "AttributesToGet");
        addIf(legacy, r.legacyFilter() != null, legacyFilterName);
        addIf(legacy, hasKeyConditions, "KeyConditions");
        addIf(legacy, r.conditionalOperator() != null, "ConditionalOperator");
        addIf(expressions, r.projectionExpression() != null, "ProjectionExpression");
        addIf(expressions, r.filterExpression() != null, "FilterExpression");
        addIf(expressions, keyConditionExpression != null, "KeyConditionExpression");
        // DynamoDB lets legacy KeyConditions stand beside FilterExpression and ProjectionExpression
        // (boto3's KeyConditions= plus a filter works there); only its own counterpart clashes.
        if (legacy.equals(List.of("KeyConditions")) && keyConditionExpression == null) {
            return;
        }
        LegacyExpressions.checkNotMixed(legacy, expressions);
    }

    private static void addIf(List<String> out, boolean present, String name) {
        if (present) {
            out.add(name);
        }
    }

    /**
     * DynamoDB's Select rules. Query words them as a one-item validation list ("1 validation error
     * detected: ..."), Scan bare; COUNT reads "only the Count". Third-party tests run against
     * DynamoDB report both forms.
     */
    private static void checkSelect(ReadRequests.Common r, boolean query) {
        Select select = r.select();
        boolean projects = r.projectionExpression() != null || r.attributesToGet() != null;
        String projectionName = r.projectionExpression() != null ? "ProjectionExpression" : "AttributesToGet";
        String prefix = query ? "1 validation error detected: " : "";
        if (select == Select.ALL_PROJECTED_ATTRIBUTES && r.indexName() == null) {
            throw DynamoException.validation(
                    prefix + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        if (select == Select.SPECIFIC_ATTRIBUTES && !projects) {
            throw DynamoException.validation(
                    prefix
                            + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
        boolean wholeOrCount =
                select == Select.ALL_ATTRIBUTES || select == Select.COUNT || select == Select.ALL_PROJECTED_ATTRIBUTES;
        if (select != null && wholeOrCount && projects) { // wholeOrCount: select is one of three
            String what = select == Select.COUNT ? "only the Count" : select.name();
            throw DynamoException.validation(
                    prefix + "Cannot specify the " + projectionName + " when choosing to get " + what);
        }
    }

    RequestExpressions expressions() {
        return expr;
    }

    /** The filter may not read key attributes in a Query (DynamoDB applies it after the key condition). */
    void checkFilterAvoidsKeys(Set<String> keyNames, String legacyFilterName) {
        Set<String> read =
                legacyFilter != null ? LegacyExpressions.topLevelNames(legacyFilter) : expr.filterTopLevelNames();
        for (String name : read) {
            if (keyNames.contains(name)) {
                String what = legacyFilter != null ? legacyFilterName : "Filter Expression";
                throw DynamoException.validation(
                        what + " can only contain non-primary key attributes: Primary key attribute: " + name);
            }
        }
    }

    /** Top-level attributes the filter and the projection read (an LSI may need the table for them). */
    Set<String> namesRead() {
        Set<String> names = new LinkedHashSet<>(
                legacyFilter != null ? LegacyExpressions.topLevelNames(legacyFilter) : expr.filterTopLevelNames());
        if (attributesToGet != null) {
            names.addAll(attributesToGet);
        } else {
            names.addAll(expr.projectedTopLevelNames());
        }
        return names;
    }

    /** Top-level attributes the projection (ProjectionExpression or AttributesToGet) asks for. */
    Set<String> projectionNames() {
        return attributesToGet != null ? new LinkedHashSet<>(attributesToGet) : expr.projectedTopLevelNames();
    }

    boolean countOnly() {
        return countOnly;
    }

    boolean test(Map<String, AttributeValue> item) {
        if (legacyFilter != null) {
            return LegacyExpressions.test(legacyFilter, item);
        }
        return expr.testFilter(item);
    }

    Map<String, AttributeValue> project(Map<String, AttributeValue> item) {
        if (legacyProjection != null) {
            return LegacyExpressions.project(legacyProjection, item);
        }
        return expr.project(item);
    }
}
