package dev.kumiko.engine.vector;

import dev.kumiko.catalog.Projection;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.ProjectionType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks vector index declarations. The member constraints (name length and pattern, Dimensions of
 * at least 1, the enums) are the API Reference's; the quotas are the Developer Guide's "Vector
 * indexes" quotas where Kumiko could read them. Where the documentation does not quote a message,
 * the wording follows DynamoDB's for the same check on GSIs and is marked so.
 */
public final class VectorIndexRules {
    /** The largest Dimensions (the Developer Guide's quota; the API model only says at least 1). */
    public static final int DIMENSIONS_MAX = 4096;
    /** Vector indexes per table. UNVERIFIED: the quota's number could not be read; 5 assumed. */
    public static final int INDEXES_PER_TABLE_MAX = 5;
    /** INLINE_FILTER elements per index. UNVERIFIED number, 10 assumed. */
    public static final int INLINE_FILTERS_MAX = 10;

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

    private VectorIndexRules() {}

    /**
     * The definitions of inputs (CreateTable's VectorIndexes, or one UpdateTable Create) for a table
     * with that billing mode, key attributes, other index names and existing vector indexes.
     */
    public static List<VectorIndexDefinition> check(
            String member,
            List<VectorRequests.IndexInput> inputs,
            @Nullable BillingMode billingMode,
            Collection<String> keyAttributes,
            Collection<String> otherIndexNames,
            List<VectorIndexDefinition> existing) {
        memberConstraints(member, inputs);
        if (billingMode != BillingMode.PAY_PER_REQUEST) {
            // Developer Guide: "Vector indexes use on-demand capacity mode only"; wording UNVERIFIED.
            throw DynamoException.validation(
                    "One or more parameter values were invalid: Vector indexes are supported only on tables "
                            + "that use on-demand capacity mode (BillingMode PAY_PER_REQUEST)");
        }
        if (existing.size() + inputs.size() > INDEXES_PER_TABLE_MAX) {
            // Wording UNVERIFIED, modeled on the GSI quota's LimitExceededException.
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Vector indexes per table exceeds the maximum allowed number of " + INDEXES_PER_TABLE_MAX);
        }
        Set<String> names = new HashSet<>(otherIndexNames);
        existing.forEach(d -> names.add(d.indexName()));
        Map<String, Integer> dimensionsByAttribute = new java.util.HashMap<>();
        existing.forEach(d -> dimensionsByAttribute.put(d.vectorAttribute(), d.dimensions()));
        List<VectorIndexDefinition> out = new ArrayList<>(inputs.size());
        for (VectorRequests.IndexInput in : inputs) {
            VectorIndexDefinition d = definition(in);
            if (!names.add(d.indexName())) {
                throw DynamoException.invalidParameter("Duplicate index name: " + d.indexName());
            }
            if (keyAttributes.contains(d.vectorAttribute())) {
                // Wording UNVERIFIED: a key attribute is a scalar, never a list of numbers.
                throw DynamoException.invalidParameter("The vector attribute of index " + d.indexName()
                        + " cannot be a key attribute of the table: " + d.vectorAttribute());
            }
            Integer dims = dimensionsByAttribute.putIfAbsent(d.vectorAttribute(), d.dimensions());
            if (dims != null && dims != d.dimensions()) {
                // API Reference: indexes on one attribute "must all use the same number of dimensions".
                throw DynamoException.invalidParameter("Vector indexes on attribute " + d.vectorAttribute()
                        + " must all use the same number of dimensions: " + dims + " and " + d.dimensions());
            }
            checkSchema(d);
            out.add(d);
        }
        return out;
    }

    /** The API model's constraints, reported in DynamoDB's "N validation errors detected" form. */
    private static void memberConstraints(String member, List<VectorRequests.IndexInput> inputs) {
        List<String> violations = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            VectorRequests.IndexInput in = inputs.get(i);
            String at = member + "." + (i + 1) + ".member.";
            String name = in.indexName();
            if (name == null) {
                violations.add(
                        "Value null at '" + at + "indexName' failed to satisfy constraint: Member must not be null");
            } else {
                if (name.length() < 3 || name.length() > 255) {
                    violations.add("Value '" + name + "' at '" + at + "indexName' failed to satisfy constraint: "
                            + "Member must have length "
                            + (name.length() < 3 ? "greater than or equal to 3" : "less than or equal to 255"));
                }
                if (!NAME.matcher(name).matches()) {
                    violations.add("Value '" + name + "' at '" + at + "indexName' failed to satisfy constraint: "
                            + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
                }
            }
            if (in.vectorAttributeName() == null) {
                violations.add("Value null at '" + at + "vectorAttribute' failed to satisfy constraint: "
                        + "Member must not be null");
            }
            if (in.dimensions() == null) {
                violations.add(
                        "Value null at '" + at + "dimensions' failed to satisfy constraint: Member must not be null");
            } else if (in.dimensions() < 1) {
                violations.add(
                        "Value '" + in.dimensions() + "' at '" + at + "dimensions' failed to satisfy constraint: "
                                + "Member must have value greater than or equal to 1");
            }
            if (in.distanceFunction() == null || distance(in.distanceFunction()) == null) {
                violations.add("Value " + (in.distanceFunction() == null ? "null" : "'" + in.distanceFunction() + "'")
                        + " at '" + at + "distanceFunction' failed to satisfy constraint: "
                        + (in.distanceFunction() == null
                                ? "Member must not be null"
                                : "Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]"));
            }
            if (in.projection() == null) {
                violations.add(
                        "Value null at '" + at + "projection' failed to satisfy constraint: Member must not be null");
            }
            if (in.searchSchema() != null && in.searchSchema().isEmpty()) {
                violations.add("Value '[]' at '" + at + "searchSchema' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
            }
        }
        if (!violations.isEmpty()) {
            throw DynamoException.validation(violations.size() + " validation error"
                    + (violations.size() == 1 ? "" : "s") + " detected: " + String.join("; ", violations));
        }
    }

    private static @Nullable VectorDistance distance(String name) {
        for (VectorDistance d : VectorDistance.values()) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    private static VectorIndexDefinition definition(VectorRequests.IndexInput in) {
        long dims = java.util.Objects.requireNonNull(in.dimensions(), "checked");
        if (dims > DIMENSIONS_MAX) {
            // The quota (1-4096); wording UNVERIFIED.
            throw DynamoException.invalidParameter("Dimensions for vector index " + in.indexName()
                    + " must be between 1 and " + DIMENSIONS_MAX + ", but was " + dims);
        }
        var p = java.util.Objects.requireNonNull(in.projection(), "checked");
        ProjectionType type = p.projectionType();
        if (type == null) {
            throw DynamoException.invalidParameter("Unknown ProjectionType: null");
        }
        if (type == ProjectionType.INCLUDE
                && (p.nonKeyAttributes() == null || p.nonKeyAttributes().isEmpty())) {
            throw DynamoException.invalidParameter("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
        }
        if (type != ProjectionType.INCLUDE && p.nonKeyAttributes() != null) {
            throw DynamoException.invalidParameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
        }
        List<SearchSchemaElement> schema = new ArrayList<>();
        if (in.searchSchema() != null) {
            for (VectorRequests.SchemaInput s : in.searchSchema()) {
                schema.add(schemaElement(in, s));
            }
        }
        return new VectorIndexDefinition(
                java.util.Objects.requireNonNull(in.indexName(), "checked"),
                java.util.Objects.requireNonNull(in.vectorAttributeName(), "checked"),
                (int) dims,
                java.util.Objects.requireNonNull(
                        distance(java.util.Objects.requireNonNull(in.distanceFunction())), "checked"),
                schema,
                new Projection(type, p.nonKeyAttributes() == null ? null : List.copyOf(p.nonKeyAttributes())),
                VectorIndexDefinition.ACTIVE,
                false);
    }

    private static SearchSchemaElement schemaElement(VectorRequests.IndexInput in, VectorRequests.SchemaInput s) {
        if (s.attributeName() == null || s.attributeName().isEmpty()) {
            throw DynamoException.invalidParameter(
                    "SearchSchema of vector index " + in.indexName() + " has an element without an AttributeName");
        }
        SearchSchemaElement.Type type;
        try {
            type = SearchSchemaElement.Type.valueOf(String.valueOf(s.type()));
        } catch (IllegalArgumentException e) {
            throw DynamoException.validation(
                    "1 validation error detected: Value " + (s.type() == null ? "null" : "'" + s.type() + "'")
                            + " at 'searchSchemaElementType' failed to satisfy constraint: Member must satisfy enum value set: "
                            + "[HASH, INLINE_FILTER]");
        }
        return new SearchSchemaElement(s.attributeName(), type);
    }

    private static void checkSchema(VectorIndexDefinition d) {
        int hashes = 0;
        int filters = 0;
        Set<String> seen = new HashSet<>();
        for (SearchSchemaElement e : d.searchSchema()) {
            if (!seen.add(e.attributeName())) {
                throw DynamoException.invalidParameter("Duplicate attribute in SearchSchema of vector index "
                        + d.indexName() + ": " + e.attributeName());
            }
            if (e.attributeName().equals(d.vectorAttribute())) {
                throw DynamoException.invalidParameter("The SearchSchema of vector index " + d.indexName()
                        + " cannot name its vector attribute: " + e.attributeName());
            }
            if (e.type() == SearchSchemaElement.Type.HASH) {
                hashes++;
            } else {
                filters++;
            }
        }
        if (hashes > 1) {
            throw DynamoException.invalidParameter(
                    "The SearchSchema of vector index " + d.indexName() + " can have at most one HASH element");
        }
        if (filters > INLINE_FILTERS_MAX) {
            throw DynamoException.invalidParameter("The SearchSchema of vector index " + d.indexName()
                    + " has more than " + INLINE_FILTERS_MAX + " INLINE_FILTER elements");
        }
    }
}
