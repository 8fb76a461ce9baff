package dev.kumiko.expr;

import dev.kumiko.error.DynamoException;

/** The expression parameters; each names itself in DynamoDB's "Invalid X: ..." messages. */
public enum ExpressionKind {
    CONDITION("ConditionExpression"),
    FILTER("FilterExpression"),
    KEY_CONDITION("KeyConditionExpression"),
    PROJECTION("ProjectionExpression"),
    UPDATE("UpdateExpression"),
    /** SearchVectors' inline filter over a vector index's SearchSchema: the condition grammar. */
    SEARCH_CONDITION("SearchConditionExpression");

    private final String parameterName;

    ExpressionKind(String parameterName) {
        this.parameterName = parameterName;
    }

    /** The request parameter name, e.g. {@code ConditionExpression}. */
    public String parameterName() {
        return parameterName;
    }

    /** A ValidationException prefixed the way DynamoDB prefixes every expression error. */
    public DynamoException invalid(String detail) {
        return DynamoException.validation("Invalid " + parameterName + ": " + detail);
    }

    /** Condition, filter and key condition share one grammar. */
    public boolean usesConditionGrammar() {
        return this == CONDITION || this == FILTER || this == KEY_CONDITION || this == SEARCH_CONDITION;
    }
}
