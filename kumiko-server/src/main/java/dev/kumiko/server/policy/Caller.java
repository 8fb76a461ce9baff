package dev.kumiko.server.policy;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Who is asking, and from where: the facts behind the global condition keys and the policy
 * variables Kumiko knows ({@code aws:PrincipalArn}, {@code aws:PrincipalAccount},
 * {@code aws:PrincipalTag/<key>}, {@code aws:username}, {@code aws:RequestedRegion}).
 */
record Caller(String principalArn, String accountId, Map<String, String> principalTags, String region) {
    private static final String TAG_PREFIX = "aws:principaltag/";
    private static final String USER_MARKER = ":user/";

    Caller {
        principalTags = Map.copyOf(principalTags);
    }

    /** A global key's value, or null when the request context has none. Key names ignore case, as IAM's do. */
    @Nullable
    String value(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.startsWith(TAG_PREFIX)) {
            return tag(key.substring(TAG_PREFIX.length()));
        }
        switch (k) {
            case "aws:principalarn":
                return principalArn;
            case "aws:principalaccount":
                return accountId;
            case "aws:requestedregion":
                return region;
            case "aws:username":
                return userName();
            default:
                return null;
        }
    }

    /** Tag keys match ignoring case (IAM tag keys are case-insensitive); an exact match wins. */
    private @Nullable String tag(String tagKey) {
        String exact = principalTags.get(tagKey);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, String> e : principalTags.entrySet()) {
            if (e.getKey().equalsIgnoreCase(tagKey)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** IAM sets aws:username only for IAM users: the last segment of arn:aws:iam::ACCOUNT:user/path/NAME. */
    private @Nullable String userName() {
        int at = principalArn.indexOf(USER_MARKER);
        if (at < 0) {
            return null;
        }
        return principalArn.substring(principalArn.lastIndexOf('/') + 1);
    }
}
