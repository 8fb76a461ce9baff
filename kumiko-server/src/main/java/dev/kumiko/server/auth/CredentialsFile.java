package dev.kumiko.server.auth;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code --credentials-file}: {@code {"keys": [{"accessKeyId": ..., "secretAccessKey": ...,
 * "sessionToken"?, "accountId"?, "principalArn"?, "principalTags"?, "policy"?}]}}. Strict: an unknown
 * member is an error, since a misspelt "policy" would otherwise silently make an admin key.
 */
public final class CredentialsFile {
    /** Far above any real key list; bounds what a wrong path (a disk image, a log) can cost at startup. */
    public static final long FILE_BYTES_MAX = 16L * 1024 * 1024;

    public static final int KEYS_MAX = 10_000;
    private static final Set<String> KEY_MEMBERS = Set.of(
            "accessKeyId", "secretAccessKey", "sessionToken", "accountId", "principalArn", "principalTags", "policy");

    private CredentialsFile() {}

    /** A file that cannot be used; the message names the file and the problem, for a one-line startup error. */
    public static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** The keys by access key id, in file order. */
    public static Map<String, AccessKey> load(Path file) {
        byte[] bytes = read(file);
        Map<String, Object> root;
        try {
            root = JsonTree.parseObject(bytes, 0, bytes.length);
        } catch (DynamoException e) {
            throw invalid(file, "not a JSON object (" + e.getMessage() + ")");
        }
        return parse(file, root);
    }

    private static byte[] read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                throw invalid(file, "no such file");
            }
            if (Files.size(file) > FILE_BYTES_MAX) {
                throw invalid(file, "larger than " + FILE_BYTES_MAX + " bytes");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw invalid(file, "cannot be read (" + e.getMessage() + ")");
        }
    }

    static Map<String, AccessKey> parse(Path file, Map<String, Object> root) {
        for (String member : root.keySet()) {
            if (!"keys".equals(member)) {
                throw invalid(file, "unknown member \"" + member + "\" (expected only \"keys\")");
            }
        }
        if (!(root.get("keys") instanceof List<?> list) || list.isEmpty()) {
            throw invalid(file, "\"keys\" must be a non-empty array");
        }
        if (list.size() > KEYS_MAX) {
            throw invalid(file, "more than " + KEYS_MAX + " keys");
        }
        Map<String, AccessKey> keys = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            AccessKey key = key(file, i, list.get(i));
            if (keys.putIfAbsent(key.accessKeyId(), key) != null) {
                throw invalid(file, "keys[" + i + "]: accessKeyId " + key.accessKeyId() + " appears twice");
            }
        }
        return Map.copyOf(keys);
    }

    @SuppressWarnings("unchecked")
    private static AccessKey key(Path file, int index, Object value) {
        String where = "keys[" + index + "]";
        if (!(value instanceof Map<?, ?> raw)) {
            throw invalid(file, where + " must be an object");
        }
        Map<String, Object> m = (Map<String, Object>) raw;
        for (String member : m.keySet()) {
            if (!KEY_MEMBERS.contains(member)) {
                throw invalid(file, where + ": unknown member \"" + member + "\"");
            }
        }
        String id = required(file, where, m, "accessKeyId");
        String secret = required(file, where, m, "secretAccessKey");
        String token = string(file, where, m, "sessionToken");
        String account = string(file, where, m, "accountId");
        if (account == null) {
            account = RequestContext.ACCOUNT_ID;
        } else if (!account.matches("[0-9]{12}")) {
            throw invalid(file, where + ": accountId must be 12 digits");
        }
        String arn = string(file, where, m, "principalArn");
        if (arn == null) {
            arn = AccessKey.defaultPrincipalArn(account, id);
        }
        return new AccessKey(
                id,
                secret,
                token,
                account,
                arn,
                tags(file, where, m.get("principalTags")),
                policy(file, where, m.get("policy")));
    }

    private static String required(Path file, String where, Map<String, Object> m, String member) {
        String s = string(file, where, m, member);
        if (s == null) {
            throw invalid(file, where + ": " + member + " is required");
        }
        return s;
    }

    private static @Nullable String string(Path file, String where, Map<String, Object> m, String member) {
        Object v = m.get(member);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s) || s.isEmpty()) {
            throw invalid(file, where + ": " + member + " must be a non-empty string");
        }
        return s;
    }

    private static Map<String, String> tags(Path file, String where, @Nullable Object value) {
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> raw)) {
            throw invalid(file, where + ": principalTags must be an object of strings");
        }
        Map<String, String> tags = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            if (!(e.getValue() instanceof String s)) {
                throw invalid(file, where + ": principalTags." + e.getKey() + " must be a string");
            }
            tags.put((String) e.getKey(), s);
        }
        return tags;
    }

    @SuppressWarnings("unchecked")
    private static @Nullable Map<String, Object> policy(Path file, String where, @Nullable Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?>)) {
            throw invalid(file, where + ": policy must be a JSON object (an IAM policy document)");
        }
        return (Map<String, Object>) value;
    }

    private static Invalid invalid(Path file, String problem) {
        return new Invalid("credentials file " + file + ": " + problem);
    }
}
