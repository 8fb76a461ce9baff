package dev.kumiko.partiql;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.engine.read.ReadRequests;
import dev.kumiko.engine.txn.TransactRequests;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.Comparator;
import dev.kumiko.expr.Condition;
import dev.kumiko.expr.Operand;
import dev.kumiko.expr.RequestExpressions;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Translates a bound statement into the engine's typed request for the equivalent DynamoDB
 * operation, so validation, conditions, capacity and transactions are the engine's own: a SELECT
 * whose WHERE fixes the partition key is a Query (sort-key terms become the key condition, the rest
 * the filter), or a GetItem when it names one item by its whole key and nothing else (see {@link
 * #pointKey}), any other SELECT a Scan; INSERT is a PutItem that must not find the item; UPDATE an
 * UpdateItem that must find it; DELETE a DeleteItem. Extra WHERE terms of a write are its condition.
 */
final class PqPlanner {
    /**
     * A GetItem, a Query or a Scan (exactly one is non-null), and the SELECT list that shapes its
     * answer (null for {@code *}).
     */
    record Read(
            ItemRequests.@Nullable GetItem get,
            ReadRequests.@Nullable Query query,
            ReadRequests.@Nullable Scan scan,
            @Nullable PqProjection projection) {
        List<Map<String, AttributeValue>> shape(List<Map<String, AttributeValue>> items) {
            return projection == null ? items : projection.shape(items);
        }
    }

    private final Catalog catalog;

    PqPlanner(Catalog catalog) {
        this.catalog = catalog;
    }

    TableDescriptor table(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found");
        }
        return t.descriptor();
    }

    Read select(
            PqStatement.Select s,
            @Nullable Boolean consistentRead,
            @Nullable Long limit,
            @Nullable Map<String, AttributeValue> startKey,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {
        TableDescriptor t = table(s.tableName());
        IndexDescriptor index = index(t, s.indexName());
        List<String> hashNames = index != null ? index.hashKeyNames() : List.of(t.hashKeyName());
        List<String> rangeNames = index != null
                ? index.rangeKeyNames()
                : t.rangeKeyName() == null ? List.of() : List.of(t.rangeKeyName());
        boolean indexKnown = s.indexName() == null || index != null;
        List<Condition> terms = PqKeys.conjuncts(s.where());
        List<Condition> keyTerms = new ArrayList<>();
        Set<Integer> used = new HashSet<>();
        boolean query = indexKnown && keyTerms(terms, hashNames, rangeNames, keyTerms, used);
        List<Condition> rest = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            if (!used.contains(i)) {
                rest.add(terms.get(i));
            }
        }
        Set<String> keyNames = new HashSet<>(hashNames);
        keyNames.addAll(rangeNames);
        if (query && PqKeys.names(PqKeys.and(rest)).stream().anyMatch(keyNames::contains)) {
            query = false; // a Query's filter may not read key attributes: the Scan can
        }
        Boolean forward = orderBy(s.orderBy(), query, hashNames, rangeNames);
        Map<String, AttributeValue> key = limit == null && startKey == null ? pointKey(s, t) : null;
        PqProjection shape = PqProjection.of(s.projection());
        if (key != null) {
            checkProjection(shape, null, null);
            PqExpressionText names = new PqExpressionText();
            String projection = shape == null ? null : names.projection(shape.fetchPaths());
            return new Read(
                    new ItemRequests.GetItem(
                            s.tableName(),
                            key,
                            consistentRead,
                            returnConsumedCapacity,
                            projection,
                            projection == null ? null : names.names(),
                            null),
                    null,
                    null,
                    shape);
        }
        Condition keyTerm = query ? PqKeys.and(keyTerms) : null;
        Condition filterTerm = query ? PqKeys.and(rest) : s.where();
        checkProjection(shape, keyTerm, filterTerm);
        PqExpressionText text = new PqExpressionText();
        String keyCondition = text.condition(keyTerm);
        String filter = text.condition(filterTerm);
        String projection = shape == null ? null : text.projection(shape.fetchPaths());
        ReadRequests.Common common = new ReadRequests.Common(
                s.tableName(),
                s.indexName(),
                null,
                limit,
                consistentRead,
                startKey,
                returnConsumedCapacity,
                filter,
                projection,
                text.names(),
                text.values(),
                null,
                null,
                null);
        if (query) {
            return new Read(null, new ReadRequests.Query(common, keyCondition, null, forward), null, shape);
        }
        return new Read(null, null, new ReadRequests.Scan(common, null, null), shape);
    }

    /**
     * The equivalent request reads whole top-level attributes (see {@link PqProjection}), so the
     * projection's checks run here on the SELECT list as written, together with the key condition
     * and filter the request carries, so that their errors come in the order the request gives them.
     */
    private static void checkProjection(
            @Nullable PqProjection shape, @Nullable Condition keyCondition, @Nullable Condition filter) {
        if (shape == null) {
            return;
        }
        PqExpressionText text = new PqExpressionText();
        RequestExpressions.builder()
                .keyConditionExpression(text.condition(keyCondition))
                .filterExpression(text.condition(filter))
                .projectionExpression(text.projection(shape.writtenPaths()))
                .expressionAttributeNames(text.names())
                .expressionAttributeValues(text.values())
                .build();
    }

    /** Picks the terms that fix every partition key attribute and then the sort key; false if they do not. */
    private static boolean keyTerms(
            List<Condition> terms,
            List<String> hashNames,
            List<String> rangeNames,
            List<Condition> keyTerms,
            Set<Integer> used) {
        for (String h : hashNames) {
            int i = find(terms, used, c -> PqKeys.equality(c, h) != null);
            if (i < 0) {
                return false;
            }
            keyTerms.add(new Condition.Compare(
                    Comparator.EQ,
                    Operand.Path.of(h),
                    new Operand.Literal(
                            Objects.requireNonNull(PqKeys.equality(terms.get(i), h), "found as an equality"))));
        }
        for (String r : rangeNames) {
            int eq = find(terms, used, c -> PqKeys.equality(c, r) != null);
            if (eq >= 0) {
                keyTerms.add(PqKeys.sortKeyCondition(terms.get(eq), r));
                continue;
            }
            int other = find(terms, used, c -> PqKeys.sortKeyCondition(c, r) != null);
            if (other >= 0) {
                keyTerms.add(PqKeys.sortKeyCondition(terms.get(other), r));
            }
            break;
        }
        return true;
    }

    private static int find(List<Condition> terms, Set<Integer> used, java.util.function.Predicate<Condition> p) {
        for (int i = 0; i < terms.size(); i++) {
            if (!used.contains(i) && p.test(terms.get(i))) {
                used.add(i);
                return i;
            }
        }
        return -1;
    }

    /** ScanIndexForward for ORDER BY (null without one); only a Query on the key attributes can be ordered. */
    private static @Nullable Boolean orderBy(
            List<PqStatement.OrderBy> orderBy, boolean query, List<String> hashNames, List<String> rangeNames) {
        if (orderBy.isEmpty()) {
            return null;
        }
        if (!query) {
            // UNVERIFIED wording: DynamoDB orders only a read that fixes the partition key.
            throw PqErrors.validation("Must have WHERE clause in the statement when using ORDER BY clause.");
        }
        Boolean forward = null;
        for (PqStatement.OrderBy o : orderBy) {
            String name = o.path().elements().size() == 1 ? o.path().firstName() : null;
            if (rangeNames.contains(name)) {
                forward = !o.descending();
            } else if (!hashNames.contains(name)) {
                // UNVERIFIED wording.
                throw PqErrors.validation("Variable reference " + o.path().firstName()
                        + " used in ORDER BY clause must be a key attribute");
            }
        }
        return forward;
    }

    private static @Nullable IndexDescriptor index(TableDescriptor t, @Nullable String name) {
        if (name == null) {
            return null;
        }
        for (IndexDescriptor x : t.localSecondaryIndexes()) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        for (IndexDescriptor x : t.globalSecondaryIndexes()) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        return null; // planned as a Scan of the index, which reports the unknown index as DynamoDB does
    }

    ItemRequests.PutItem insert(
            PqStatement.Insert s,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure) {
        TableDescriptor t = table(s.tableName());
        PqExpressionText text = new PqExpressionText();
        String condition = "attribute_not_exists(" + text.name(t.hashKeyName()) + ")";
        return new ItemRequests.PutItem(
                s.tableName(),
                s.item(),
                null,
                returnConsumedCapacity,
                null,
                onConditionFailure,
                new ItemRequests.Conditions(condition, text.names(), null, null, null));
    }

    ItemRequests.UpdateItem update(
            PqStatement.Update s,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure) {
        TableDescriptor t = table(s.tableName());
        List<Condition> rest = new ArrayList<>();
        rest.add(new Condition.AttributeExists(Operand.Path.of(t.hashKeyName()))); // UPDATE is not an upsert
        Map<String, AttributeValue> key = PqKeys.fullKey(s.where(), keyNames(t), rest);
        PqExpressionText text = new PqExpressionText();
        String update = text.update(s.actions());
        String condition = text.condition(PqKeys.and(rest));
        return new ItemRequests.UpdateItem(
                s.tableName(),
                key,
                update,
                s.returnValues(),
                returnConsumedCapacity,
                null,
                onConditionFailure,
                null,
                new ItemRequests.Conditions(condition, text.names(), text.values(), null, null));
    }

    ItemRequests.DeleteItem delete(
            PqStatement.Delete s,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure) {
        TableDescriptor t = table(s.tableName());
        List<Condition> rest = new ArrayList<>();
        Map<String, AttributeValue> key = PqKeys.fullKey(s.where(), keyNames(t), rest);
        PqExpressionText text = new PqExpressionText();
        String condition = text.condition(PqKeys.and(rest));
        return new ItemRequests.DeleteItem(
                s.tableName(),
                key,
                s.returnValues(),
                returnConsumedCapacity,
                null,
                onConditionFailure,
                new ItemRequests.Conditions(condition, text.names(), text.values(), null, null));
    }

    /** A statement of a write transaction as a TransactWriteItem; {@code prefix} names it in errors. */
    TransactRequests.WriteAction writeAction(
            PqStatement s, @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure, String prefix) {
        if (s instanceof PqStatement.Insert i) {
            ItemRequests.PutItem p = insert(i, null, onConditionFailure);
            return new TransactRequests.WriteAction(
                    1,
                    TransactRequests.Kind.PUT,
                    p.tableName(),
                    p.item(),
                    null,
                    p.conditions().conditionExpression(),
                    null,
                    p.conditions().expressionAttributeNames(),
                    null,
                    onConditionFailure);
        }
        if (s instanceof PqStatement.Update u) {
            refuseReturning(u.returnValues(), prefix);
            ItemRequests.UpdateItem r = update(u, null, onConditionFailure);
            return new TransactRequests.WriteAction(
                    1,
                    TransactRequests.Kind.UPDATE,
                    r.tableName(),
                    null,
                    r.key(),
                    r.conditions().conditionExpression(),
                    r.updateExpression(),
                    r.conditions().expressionAttributeNames(),
                    r.conditions().expressionAttributeValues(),
                    onConditionFailure);
        }
        if (s instanceof PqStatement.Delete d) {
            refuseReturning(d.returnValues(), prefix);
            ItemRequests.DeleteItem r = delete(d, null, onConditionFailure);
            return new TransactRequests.WriteAction(
                    1,
                    TransactRequests.Kind.DELETE,
                    r.tableName(),
                    null,
                    r.key(),
                    r.conditions().conditionExpression(),
                    null,
                    r.conditions().expressionAttributeNames(),
                    r.conditions().expressionAttributeValues(),
                    onConditionFailure);
        }
        return conditionCheck(((PqStatement.Exists) s).select(), onConditionFailure, prefix);
    }

    private TransactRequests.WriteAction conditionCheck(
            PqStatement.Select s, @Nullable ReturnValuesOnConditionCheckFailure onConditionFailure, String prefix) {
        TableDescriptor t = table(s.tableName());
        List<Condition> rest = new ArrayList<>();
        Map<String, AttributeValue> key;
        try {
            key = s.indexName() == null ? PqKeys.fullKey(s.where(), keyNames(t), rest) : null;
        } catch (DynamoException e) {
            key = null;
        }
        if (key == null || rest.isEmpty()) {
            // Observed wording.
            throw PqErrors.validation(prefix + "EXISTS() must contain a single item read with additional condition");
        }
        PqExpressionText text = new PqExpressionText();
        String condition = text.condition(PqKeys.and(rest));
        return new TransactRequests.WriteAction(
                1,
                TransactRequests.Kind.CONDITION_CHECK,
                s.tableName(),
                null,
                key,
                condition,
                null,
                text.names(),
                text.values(),
                onConditionFailure);
    }

    /**
     * A SELECT that reads exactly one item by its full primary key, as batches and transactions
     * require; null when the WHERE is anything else. {@code rest} receives the other terms.
     */
    @Nullable
    Map<String, AttributeValue> singleItemKey(PqStatement.Select s, List<Condition> rest) {
        return singleItemKey(s, table(s.tableName()), rest);
    }

    /**
     * The key of a SELECT that names one item by its whole key and nothing else; null otherwise.
     * Without Limit and NextToken (the caller's test) such a SELECT is a Query that answers at most
     * one item, and it runs as a GetItem, which reads the item without planning a key condition and
     * a page. Its answer is the Query's: the item or none, no NextToken, the same read units, the
     * same projection and its errors. Where the two word an error differently (a key value of the
     * wrong type, empty, or over the key size limits, which GetItem's key checks refuse first) the
     * statement stays a Query.
     */
    private static @Nullable Map<String, AttributeValue> pointKey(PqStatement.Select s, TableDescriptor t) {
        List<Condition> rest = new ArrayList<>();
        Map<String, AttributeValue> key = singleItemKey(s, t, rest);
        return key != null && rest.isEmpty() && KeyCheck.accepts(t, key) ? key : null;
    }

    private static @Nullable Map<String, AttributeValue> singleItemKey(
            PqStatement.Select s, TableDescriptor t, List<Condition> rest) {
        if (s.indexName() != null) {
            return null;
        }
        try {
            return PqKeys.fullKey(s.where(), keyNames(t), rest);
        } catch (DynamoException e) {
            if (PqErrors.KEY_EQUALITY.equals(e.getMessage())) {
                return null;
            }
            throw e;
        }
    }

    TransactRequests.GetAction getAction(PqStatement.Select s, Map<String, AttributeValue> key) {
        PqProjection shape = PqProjection.of(s.projection());
        checkProjection(shape, null, null);
        PqExpressionText text = new PqExpressionText();
        String projection = shape == null ? null : text.projection(shape.fetchPaths());
        return new TransactRequests.GetAction(true, s.tableName(), key, projection, text.names());
    }

    private static void refuseReturning(@Nullable ReturnValue returnValues, String prefix) {
        if (returnValues != null) {
            // UNVERIFIED wording: ExecuteTransaction refuses RETURNING.
            throw PqErrors.validation(prefix + "RETURNING clause is not supported in ExecuteTransaction");
        }
    }

    private static List<String> keyNames(TableDescriptor t) {
        return t.rangeKeyName() == null ? List.of(t.hashKeyName()) : List.of(t.hashKeyName(), t.rangeKeyName());
    }
}
