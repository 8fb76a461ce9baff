package dev.kumiko.partiql;

/** PartiQL's documented limits (API Reference: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction). */
public final class PqLimits {
    /** Statement: length 1 to 8192. */
    public static final int STATEMENT_LENGTH_MAX = 8192;
    /** BatchExecuteStatement's Statements: 1 to 25. */
    public static final int BATCH_STATEMENTS_MAX = 25;
    /** ExecuteTransaction's TransactStatements: 1 to 100. */
    public static final int TRANSACTION_STATEMENTS_MAX = 100;
    /** NextToken: length 1 to 32768. */
    public static final int NEXT_TOKEN_LENGTH_MAX = 32768;
    /** ClientRequestToken: length 1 to 36. */
    public static final int CLIENT_TOKEN_LENGTH_MAX = 36;
    /** Parameters: at least one when given. */
    public static final int PARAMETERS_MIN = 1;
    /** DynamoDB's item nesting limit, applied to map, list and set literals. */
    public static final int NESTING_DEPTH_MAX = 32;

    /** Parentheses and NOT nested in one WHERE clause (Kumiko's bound; DynamoDB documents none). */
    public static final int CONDITION_DEPTH_MAX = 100;

    private PqLimits() {}
}
