package dev.kumiko.error;

/**
 * A ValidationException for violations of the API model's member constraints ("N validation
 * errors detected: Value 'x' at 'path' failed to satisfy constraint: ..."). DynamoDB checks these
 * before anything else about a request, so code that orders checks asks for this type instead of
 * reading the message.
 */
public final class MemberConstraintException extends DynamoException {
    public MemberConstraintException(String message) {
        super(ErrorCode.VALIDATION, message);
    }
}
