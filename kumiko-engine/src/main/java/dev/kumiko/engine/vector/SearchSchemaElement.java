package dev.kumiko.engine.vector;

/** One SearchSchema element: an attribute a SearchConditionExpression may name, and its role. */
public record SearchSchemaElement(String attributeName, Type type) {
    /** SearchSchemaElementType: the index's partition key, or an inline filter attribute. */
    public enum Type {
        HASH,
        INLINE_FILTER
    }
}
