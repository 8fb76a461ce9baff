package dev.kumiko.error;

/**
 * Every error Kumiko answers with: DynamoDB's {@code __type} (namespace prefix included, as the
 * SDKs match on the part after '#') and the HTTP status DynamoDB uses for it.
 */
public enum ErrorCode {
    VALIDATION("com.amazon.coral.validate#ValidationException", 400),
    SERIALIZATION("com.amazon.coral.service#SerializationException", 400),
    UNKNOWN_OPERATION("com.amazon.coral.service#UnknownOperationException", 400),
    MISSING_AUTHENTICATION_TOKEN("com.amazon.coral.service#MissingAuthenticationTokenException", 400),
    UNRECOGNIZED_CLIENT("com.amazon.coral.service#UnrecognizedClientException", 400),
    INVALID_SIGNATURE("com.amazon.coral.service#InvalidSignatureException", 400),
    INCOMPLETE_SIGNATURE("com.amazon.coral.service#IncompleteSignatureException", 400),
    ACCESS_DENIED("com.amazon.coral.service#AccessDeniedException", 400),
    REQUEST_TOO_LARGE("com.amazon.coral.service#RequestEntityTooLargeException", 413),
    INTERNAL_FAILURE("com.amazon.coral.service#InternalFailure", 500),
    RESOURCE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400),
    RESOURCE_IN_USE("com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400),
    LIMIT_EXCEEDED("com.amazonaws.dynamodb.v20120810#LimitExceededException", 400),
    CONDITIONAL_CHECK_FAILED("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400),
    TRANSACTION_CANCELED("com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400),
    TRANSACTION_CONFLICT("com.amazonaws.dynamodb.v20120810#TransactionConflictException", 400),
    TRANSACTION_IN_PROGRESS("com.amazonaws.dynamodb.v20120810#TransactionInProgressException", 400),
    DUPLICATE_ITEM("com.amazonaws.dynamodb.v20120810#DuplicateItemException", 400),
    IDEMPOTENT_PARAMETER_MISMATCH("com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400),
    ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED(
            "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException", 400),
    PROVISIONED_THROUGHPUT_EXCEEDED(
            "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", 400),
    THROTTLING("com.amazon.coral.availability#ThrottlingException", 400),
    EXPIRED_ITERATOR("com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", 400),
    TRIMMED_DATA_ACCESS("com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", 400);

    private final String type;
    private final int httpStatus;

    ErrorCode(String type, int httpStatus) {
        this.type = type;
        this.httpStatus = httpStatus;
    }

    /** The full {@code __type} value, e.g. {@code com.amazon.coral.validate#ValidationException}. */
    public String type() {
        return type;
    }

    /** The short name after '#', which is what the SDKs expose as the error code. */
    public String shortName() {
        return type.substring(type.indexOf('#') + 1);
    }

    public int httpStatus() {
        return httpStatus;
    }
}
