package dev.kumiko.server.policy;

import dev.kumiko.engine.check.TableNames;
import org.jspecify.annotations.Nullable;

/**
 * Resource ARNs as IAM sees them for one caller: {@code arn:aws:dynamodb:<region>:<account>:table/T},
 * {@code .../table/T/index/I}, {@code .../table/T/stream/LABEL}, with the region the request was
 * signed for and the caller's account. ARNs a request carries (a table ARN as TableName, a stream
 * ARN, a ResourceArn) keep their resource part and take this prefix, because the ARNs Kumiko hands
 * out name its fixed account, not the key's.
 */
record ResourceArns(String region, String accountId) {
    static final String ANY = "*";

    String prefix() {
        return "arn:aws:dynamodb:" + region + ":" + accountId + ":";
    }

    String table(String nameOrArn) {
        return nameOrArn.startsWith("arn:") ? rebase(nameOrArn) : prefix() + "table/" + nameOrArn;
    }

    String index(String tableNameOrArn, String indexName) {
        return table(tableNameOrArn) + "/index/" + indexName;
    }

    /** A request-supplied ARN with this caller's partition, region and account. */
    String rebase(String arn) {
        String[] parts = arn.split(":", 6);
        return parts.length == 6 && parts[0].equals("arn") ? prefix() + parts[5] : arn;
    }

    /** The table name a TableName member designates (a name or a table ARN); null if neither. */
    static @Nullable String tableName(String nameOrArn) {
        return nameOrArn.startsWith("arn:") ? TableNames.nameFromArnOrNull(nameOrArn) : nameOrArn;
    }
}
