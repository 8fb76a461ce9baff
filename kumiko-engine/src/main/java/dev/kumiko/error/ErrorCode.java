package dev.kumiko.error;

/**
 * Every error Kumiko answers with, by DynamoDB's {@code __type} (namespace prefix included, as the
 * SDKs match on the part after '#'). The HTTP status of each is the server's business.
 */
public enum ErrorCode {
    VALIDATION("com.amazon.coral.validate#ValidationException"),
    SERIALIZATION("com.amazon.coral.service#SerializationException"),
    UNKNOWN_OPERATION("com.amazon.coral.service#UnknownOperationException"),
    MISSING_AUTHENTICATION_TOKEN("com.amazon.coral.service#MissingAuthenticationTokenException"),
    UNRECOGNIZED_CLIENT("com.amazon.coral.service#UnrecognizedClientException"),
    INVALID_SIGNATURE("com.amazon.coral.service#InvalidSignatureException"),
    INCOMPLETE_SIGNATURE("com.amazon.coral.service#IncompleteSignatureException"),
    ACCESS_DENIED("com.amazon.coral.service#AccessDeniedException"),
    REQUEST_TOO_LARGE("com.amazon.coral.service#RequestEntityTooLargeException"),
    INTERNAL_FAILURE("com.amazon.coral.service#InternalFailure"),
    /** DynamoDB's modeled 500 (the SDKs' InternalServerErrorException); Kumiko's memory store when full. */
    INTERNAL_SERVER_ERROR("com.amazonaws.dynamodb.v20120810#InternalServerError"),
    /**
     * DynamoDB's 503, "currently unavailable (this should be a temporary state)"; Kumiko's answer when
     * the bytes of requests in flight are at their bound. UNVERIFIED namespace: the short name is the
     * one AWS's common errors list (ServiceUnavailable), which is what the SDKs read.
     */
    SERVICE_UNAVAILABLE("com.amazon.coral.availability#ServiceUnavailable"),
    RESOURCE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"),
    RESOURCE_IN_USE("com.amazonaws.dynamodb.v20120810#ResourceInUseException"),
    LIMIT_EXCEEDED("com.amazonaws.dynamodb.v20120810#LimitExceededException"),
    POLICY_NOT_FOUND("com.amazonaws.dynamodb.v20120810#PolicyNotFoundException"),
    CONDITIONAL_CHECK_FAILED("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException"),
    TRANSACTION_CANCELED("com.amazonaws.dynamodb.v20120810#TransactionCanceledException"),
    TRANSACTION_CONFLICT("com.amazonaws.dynamodb.v20120810#TransactionConflictException"),
    TRANSACTION_IN_PROGRESS("com.amazonaws.dynamodb.v20120810#TransactionInProgressException"),
    DUPLICATE_ITEM("com.amazonaws.dynamodb.v20120810#DuplicateItemException"),
    IDEMPOTENT_PARAMETER_MISMATCH("com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException"),
    ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED("com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException"),
    PROVISIONED_THROUGHPUT_EXCEEDED("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"),
    THROTTLING("com.amazon.coral.availability#ThrottlingException"),
    EXPIRED_ITERATOR("com.amazonaws.dynamodb.v20120810#ExpiredIteratorException"),
    TRIMMED_DATA_ACCESS("com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException"),
    EXPORT_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ExportNotFoundException"),
    EXPORT_CONFLICT("com.amazonaws.dynamodb.v20120810#ExportConflictException"),
    INVALID_EXPORT_TIME("com.amazonaws.dynamodb.v20120810#InvalidExportTimeException"),
    IMPORT_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ImportNotFoundException"),
    IMPORT_CONFLICT("com.amazonaws.dynamodb.v20120810#ImportConflictException"),
    BACKUP_NOT_FOUND("com.amazonaws.dynamodb.v20120810#BackupNotFoundException"),
    BACKUP_IN_USE("com.amazonaws.dynamodb.v20120810#BackupInUseException"),
    TABLE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#TableNotFoundException"),
    TABLE_ALREADY_EXISTS("com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException"),
    TABLE_IN_USE("com.amazonaws.dynamodb.v20120810#TableInUseException"),
    GLOBAL_TABLE_ALREADY_EXISTS("com.amazonaws.dynamodb.v20120810#GlobalTableAlreadyExistsException"),
    GLOBAL_TABLE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException"),
    REPLICA_ALREADY_EXISTS("com.amazonaws.dynamodb.v20120810#ReplicaAlreadyExistsException"),
    REPLICA_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ReplicaNotFoundException"),
    INDEX_NOT_FOUND("com.amazonaws.dynamodb.v20120810#IndexNotFoundException"),
    CONTINUOUS_BACKUPS_UNAVAILABLE("com.amazonaws.dynamodb.v20120810#ContinuousBackupsUnavailableException"),
    POINT_IN_TIME_RECOVERY_UNAVAILABLE("com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException"),
    INVALID_RESTORE_TIME("com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException");

    private final String type;

    ErrorCode(String type) {
        this.type = type;
    }

    /** The full {@code __type} value, e.g. {@code com.amazon.coral.validate#ValidationException}. */
    public String type() {
        return type;
    }

    /** The short name after '#', which is what the SDKs expose as the error code. */
    public String shortName() {
        return type.substring(type.indexOf('#') + 1);
    }
}
