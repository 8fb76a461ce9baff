package dev.kumiko.engine.control;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;

/**
 * Judges the ResourceArn of TagResource, UntagResource and ListTagsOfResource as DynamoDB does: an
 * ARN of another service or another account is refused as access denied (IAM answers before the
 * service looks), a string that is not an ARN or a DynamoDB ARN that names no table is invalid, and
 * a table ARN of this account names a table (which may still not exist).
 */
final class TagArns {
    private static final int ARN_PARTS = 6;
    private static final String SERVICE = "dynamodb";

    private TagArns() {}

    /** The table name the ARN names; throws DynamoDB's error for an ARN that names none. */
    static String tableName(String arn, String operation) {
        String[] parts = arn.split(":", ARN_PARTS);
        if (parts.length != ARN_PARTS || !"arn".equals(parts[0])) {
            throw invalid(arn);
        }
        if (!SERVICE.equals(parts[2]) || !RequestContext.ACCOUNT_ID.equals(parts[4])) {
            // UNVERIFIED wording: IAM's implicit-deny text; the principal is the default account's root
            // because the engine does not know the caller.
            throw new DynamoException(
                    ErrorCode.ACCESS_DENIED,
                    "User: arn:aws:iam::" + RequestContext.ACCOUNT_ID
                            + ":root is not authorized to perform: dynamodb:" + operation + " on resource: " + arn
                            + " because no resource-based policy allows the dynamodb:" + operation + " action");
        }
        String name = TableNames.nameFromArnOrNull(arn);
        if (name == null) {
            throw invalid(arn);
        }
        return name;
    }

    private static DynamoException invalid(String arn) {
        // UNVERIFIED wording; the class (ValidationException) is what DynamoDB answers.
        return DynamoException.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
    }
}
