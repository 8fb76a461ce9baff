package dev.kumiko.server.auth;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One access key of the credentials file: the secret that signs its requests and who it speaks for.
 *
 * @param sessionToken when not null, a request must carry {@code X-Amz-Security-Token} equal to it
 * @param policy       an IAM policy document as parsed JSON; null means the key may do everything
 */
public record AccessKey(
        String accessKeyId,
        String secretAccessKey,
        @Nullable String sessionToken,
        String accountId,
        String principalArn,
        Map<String, String> principalTags,
        @Nullable Map<String, Object> policy) {
    public AccessKey {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(principalArn, "principalArn");
        principalTags = Map.copyOf(principalTags);
    }

    /** A key with the defaults the credentials file uses when a field is absent. */
    public static AccessKey admin(String accessKeyId, String secretAccessKey) {
        return new AccessKey(
                accessKeyId,
                secretAccessKey,
                null,
                dev.kumiko.engine.base.RequestContext.ACCOUNT_ID,
                defaultPrincipalArn(dev.kumiko.engine.base.RequestContext.ACCOUNT_ID, accessKeyId),
                Map.of(),
                null);
    }

    static String defaultPrincipalArn(String accountId, String accessKeyId) {
        return "arn:aws:iam::" + accountId + ":user/" + accessKeyId;
    }

    /** Never prints the secret or the session token (keys end up in logs and assertion messages). */
    @Override
    public String toString() {
        return "AccessKey[" + accessKeyId + ", " + principalArn + (policy == null ? ", admin" : ", policy") + "]";
    }
}
