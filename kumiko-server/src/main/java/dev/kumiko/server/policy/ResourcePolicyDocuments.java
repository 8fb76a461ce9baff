package dev.kumiko.server.policy;

import dev.kumiko.error.DynamoException;
import dev.kumiko.server.json.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Resource-based policy documents of tables and streams: judged when attached (PutResourcePolicy,
 * CreateTable's ResourcePolicy) with DynamoDB's ValidationException, and parsed once for
 * authorization (a small cache by document text).
 *
 * <p>A document must be IAM JSON whose statements each carry a Principal, and whose actions are
 * DynamoDB actions that apply to the resource: a table's policy may not name the stream actions
 * (DescribeStream, GetRecords, GetShardIterator, ListStreams), a stream's may name only
 * DescribeStream, GetRecords and GetShardIterator. DynamoDB's answer for an action outside those
 * is captured: {@code One or more parameter values were invalid: Invalid policy document: The
 * following action names are invalid: "dynamodb:ListStreams"} (aws-controllers-k8s and aws-cdk
 * reports). Whatever Kumiko cannot evaluate (condition operators outside the string family and
 * Null, principals other than AWS ones) is refused the same way instead of being ignored.
 */
public final class ResourcePolicyDocuments {
    static final String INVALID_PREFIX = "One or more parameter values were invalid: Invalid policy document: ";

    /** Parsed documents kept; past it the cache is emptied (documents are few, and each at most 20 KB). */
    static final int CACHE_ENTRIES_MAX = 256;

    private static final String SERVICE = "dynamodb:";
    private static final Set<String> STREAM_ACTIONS = lower(Set.of("DescribeStream", "GetRecords", "GetShardIterator"));
    private static final Set<String> NEVER_ON_A_RESOURCE = lower(Set.of("ListStreams"));
    /** DynamoDB's actions besides the stream ones, as IAM's Service Authorization Reference names them. */
    private static final Set<String> TABLE_ACTIONS = lower(Set.of(
            "BatchGetItem",
            "BatchWriteItem",
            "ConditionCheckItem",
            "CreateBackup",
            "CreateGlobalTable",
            "CreateTable",
            "CreateTableReplica",
            "DeleteBackup",
            "DeleteItem",
            "DeleteResourcePolicy",
            "DeleteTable",
            "DeleteTableReplica",
            "DescribeBackup",
            "DescribeContinuousBackups",
            "DescribeContributorInsights",
            "DescribeEndpoints",
            "DescribeExport",
            "DescribeGlobalTable",
            "DescribeGlobalTableSettings",
            "DescribeImport",
            "DescribeKinesisStreamingDestination",
            "DescribeLimits",
            "DescribeReservedCapacity",
            "DescribeReservedCapacityOfferings",
            "DescribeTable",
            "DescribeTableReplicaAutoScaling",
            "DescribeTimeToLive",
            "DisableKinesisStreamingDestination",
            "EnableKinesisStreamingDestination",
            "ExportTableToPointInTime",
            "GetItem",
            "GetResourcePolicy",
            "ImportTable",
            "ListBackups",
            "ListContributorInsights",
            "ListExports",
            "ListGlobalTables",
            "ListImports",
            "ListTables",
            "ListTagsOfResource",
            "PartiQLDelete",
            "PartiQLInsert",
            "PartiQLSelect",
            "PartiQLUpdate",
            "PutItem",
            "PutResourcePolicy",
            "Query",
            "RestoreTableFromAwsBackup",
            "RestoreTableFromBackup",
            "RestoreTableToPointInTime",
            "Scan",
            "StartAwsBackupJob",
            "TagResource",
            "UntagResource",
            "UpdateContinuousBackups",
            "UpdateContributorInsights",
            "UpdateGlobalTable",
            "UpdateGlobalTableSettings",
            "UpdateGlobalTableVersion",
            "UpdateItem",
            "UpdateKinesisStreamingDestination",
            "UpdateTable",
            "UpdateTableReplicaAutoScaling",
            "UpdateTimeToLive"));

    private static final Map<String, Policy> PARSED = new ConcurrentHashMap<>();

    private ResourcePolicyDocuments() {}

    /** Throws DynamoDB's ValidationException when the document cannot be attached to a table (or stream). */
    public static void check(String text, boolean stream) {
        Map<String, Object> doc = json(text);
        try {
            PolicyParser.parse(doc, PolicyParser.Kind.RESOURCE);
        } catch (PolicyException e) {
            // UNVERIFIED wording after the prefix: Kumiko's account of what is wrong.
            throw DynamoException.validation(INVALID_PREFIX + e.getMessage());
        }
        List<String> invalid = invalidActions(doc, stream);
        if (!invalid.isEmpty()) {
            throw DynamoException.validation(
                    INVALID_PREFIX + "The following action names are invalid: " + String.join(", ", invalid));
        }
    }

    /** The parsed form of a document that was checked when attached. */
    static Policy parsed(String text) {
        Policy p = PARSED.get(text);
        if (p != null) {
            return p;
        }
        if (PARSED.size() >= CACHE_ENTRIES_MAX) {
            PARSED.clear();
        }
        Policy parsed = PolicyParser.parse(json(text), PolicyParser.Kind.RESOURCE);
        PARSED.put(text, parsed);
        return parsed;
    }

    private static Map<String, Object> json(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try {
            return JsonTree.parseObject(bytes, 0, bytes.length);
        } catch (DynamoException e) {
            // UNVERIFIED wording after the prefix.
            throw DynamoException.validation(INVALID_PREFIX + "The policy is not valid JSON");
        }
    }

    /** Every action name (Action and NotAction) the resource cannot have, quoted, in document order. */
    @SuppressWarnings("unchecked")
    private static List<String> invalidActions(Map<String, Object> doc, boolean stream) {
        Object raw = doc.get("Statement");
        List<Object> statements = raw instanceof List ? (List<Object>) raw : List.of(raw == null ? Map.of() : raw);
        Set<String> out = new LinkedHashSet<>();
        for (Object s : statements) {
            if (s instanceof Map<?, ?> m) {
                for (String element : List.of("Action", "NotAction")) {
                    for (String a : texts(m.get(element))) {
                        if (!valid(a, stream)) {
                            out.add("\"" + a + "\"");
                        }
                    }
                }
            }
        }
        return new ArrayList<>(out);
    }

    static boolean valid(String action, boolean stream) {
        if (action.equals("*")) {
            return true;
        }
        String lower = action.toLowerCase(Locale.ROOT);
        if (!lower.startsWith(SERVICE)) {
            return false;
        }
        String name = lower.substring(SERVICE.length());
        if (name.indexOf('*') >= 0 || name.indexOf('?') >= 0) {
            return true;
        }
        if (NEVER_ON_A_RESOURCE.contains(name)) {
            return false;
        }
        return stream ? STREAM_ACTIONS.contains(name) : TABLE_ACTIONS.contains(name);
    }

    private static List<String> texts(@Nullable Object raw) {
        if (raw instanceof String s) {
            return List.of(s);
        }
        List<String> out = new ArrayList<>();
        if (raw instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private static Set<String> lower(Set<String> names) {
        Set<String> out = new java.util.HashSet<>();
        names.forEach(n -> out.add(n.toLowerCase(Locale.ROOT)));
        return Set.copyOf(out);
    }
}
