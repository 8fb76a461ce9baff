package dev.kumiko.engine.control;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.ReadModifyWrite.Claimed;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: one policy document per table and
 * per stream, with a revision id. A policy is store data under the table's id (key space
 * {@link KeySpace#RESOURCE_POLICIES}), so it survives a restart, is shared by every engine over the
 * store, goes with the table's other keys when the table is dropped, and is not carried to a table
 * restored from a backup (a restore is a new table with a new id; the Developer Guide lists IAM
 * policies among what must be set up again on a restored table). Each change is a store
 * transaction on the policy's key, so an ExpectedRevisionId is compared with what is committed.
 *
 * <p>The engine keeps the document as text; what the document may say is judged by the caller
 * (the server's policy package) through {@link DocumentCheck}, after the members and the size.
 */
public final class ResourcePolicies {
    /** "The maximum size supported for a resource-based policy document is 20 KB", whitespace counted. */
    public static final int POLICY_BYTES_MAX = 20 * 1024;

    /** ExpectedRevisionId's word for "attach only if there is no policy" (API Reference, PutResourcePolicy). */
    public static final String NO_POLICY = "NO_POLICY";

    static final int RESOURCE_ARN_LENGTH_MAX = 1283;
    static final int REVISION_ID_LENGTH_MAX = 255;

    private final Catalog catalog;
    private final Store store;
    private final Clock clock;

    public ResourcePolicies(Catalog catalog, Store store, Clock clock) {
        this.catalog = catalog;
        this.store = store;
        this.clock = clock;
    }

    /** A policy as stored: its document and its revision id. */
    public record Attached(String policy, String revisionId) {}

    /** Judges a document for a table (stream false) or a stream; throws DynamoDB's ValidationException. */
    @FunctionalInterface
    public interface DocumentCheck {
        void check(String policy, boolean stream);
    }

    /** Attaches policy to the resource; returns the revision id (the same one for the same document). */
    public String put(
            @Nullable String resourceArn,
            @Nullable String policy,
            @Nullable String expectedRevisionId,
            DocumentCheck documentCheck) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, RESOURCE_ARN_LENGTH_MAX);
        }
        c.notNull("policy", policy);
        c.length("expectedRevisionId", expectedRevisionId, 1, REVISION_ID_LENGTH_MAX);
        c.throwIfAny();
        String arn = Objects.requireNonNull(resourceArn, "checked above");
        String document = Objects.requireNonNull(policy, "checked above");
        checkSize(document);
        ResourcePolicyArns.Resource r = ResourcePolicyArns.parse(arn, "PutResourcePolicy");
        documentCheck.check(document, r.streamLabel() != null);
        Table t = existing(r, arn);
        byte[] key = key(t.descriptor().id(), r.streamLabel());
        return ReadModifyWrite.SYSTEM.run(
                Claimed.RETRY, last -> stillInUse(arn), () -> putOnce(key, arn, document, expectedRevisionId));
    }

    /** One attempt of {@link #put}: compares the revision committed at key and replaces the policy. */
    private String putOnce(byte[] key, String arn, String document, @Nullable String expectedRevisionId) {
        try (Transaction txn = store.begin(key)) {
            Stored current = Stored.decode(txn.get(key));
            if (!matches(current, expectedRevisionId)) {
                throw policyNotFound(arn);
            }
            if (document.equals(current.policy())) {
                return current.revisionId();
            }
            Stored next = new Stored(nextRevision(current), document);
            txn.commit(new WriteBatch().put(key, next.encode()));
            return next.revisionId();
        }
    }

    /**
     * The give-up answer when other changes of one policy kept conflicting (only a store that
     * validates optimistically has such races): DynamoDB's answer to a resource being changed.
     */
    @SuppressWarnings("TypeParameterUnusedInFormals") // it only throws; T lets it serve as any GiveUp
    private static <T> T stillInUse(String arn) {
        // UNVERIFIED wording, as Catalog.modify's.
        throw new DynamoException(
                ErrorCode.RESOURCE_IN_USE, "Attempt to change a resource which is still in use: " + arn);
    }

    /** The policy of a table CreateTable just made (its ResourcePolicy member, already judged). */
    public void attachAtCreate(String tableName, String policy) {
        Table t = catalog.get(tableName);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + tableName + " not found");
        }
        byte[] key = key(t.descriptor().id(), null);
        store.apply(new WriteBatch().put(key, new Stored(Long.toString(clock.nowMillis()), policy).encode()));
    }

    /** The size check of CreateTable's ResourcePolicy, the same as PutResourcePolicy's. */
    public static void checkSize(String policy) {
        if (policy.getBytes(StandardCharsets.UTF_8).length > POLICY_BYTES_MAX) {
            // UNVERIFIED wording and class, as in put.
            throw DynamoException.invalidParameter("Invalid policy document: The policy document exceeds the "
                    + "maximum size of " + POLICY_BYTES_MAX + " bytes");
        }
    }

    public Attached get(@Nullable String resourceArn) {
        String arn = checkArnMember(resourceArn);
        ResourcePolicyArns.Resource r = ResourcePolicyArns.parse(arn, "GetResourcePolicy");
        Table t = existing(r, arn);
        Stored s = Stored.decode(store.get(key(t.descriptor().id(), r.streamLabel())));
        String policy = s.policy();
        if (policy == null) {
            throw policyNotFound(arn);
        }
        return new Attached(policy, s.revisionId());
    }

    /**
     * Removes the policy; returns the removed policy's revision id, or null when there was none (the
     * call is idempotent unless an ExpectedRevisionId is given, API Reference).
     */
    // NullAway 0.14 cannot carry the null of deleteOnce through run's type variable T.
    @SuppressWarnings("NullAway")
    public @Nullable String delete(@Nullable String resourceArn, @Nullable String expectedRevisionId) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, RESOURCE_ARN_LENGTH_MAX);
        }
        c.length("expectedRevisionId", expectedRevisionId, 1, REVISION_ID_LENGTH_MAX);
        c.throwIfAny();
        String arn = Objects.requireNonNull(resourceArn, "checked above");
        ResourcePolicyArns.Resource r = ResourcePolicyArns.parse(arn, "DeleteResourcePolicy");
        Table t = existing(r, arn);
        byte[] key = key(t.descriptor().id(), r.streamLabel());
        return ReadModifyWrite.SYSTEM.run(
                Claimed.RETRY, last -> stillInUse(arn), () -> deleteOnce(key, arn, expectedRevisionId));
    }

    /** One attempt of {@link #delete}. */
    private @Nullable String deleteOnce(byte[] key, String arn, @Nullable String expectedRevisionId) {
        try (Transaction txn = store.begin(key)) {
            Stored current = Stored.decode(txn.get(key));
            if (expectedRevisionId != null
                    && (current.policy() == null || !current.revisionId().equals(expectedRevisionId))) {
                throw policyNotFound(arn);
            }
            if (current.policy() == null) {
                return null;
            }
            // A tombstone keeps the revision, so a later policy's revision id never repeats an old one.
            txn.commit(new WriteBatch().put(key, new Stored(current.revisionId(), null).encode()));
            return current.revisionId();
        }
    }

    /**
     * The policy that governs a table (and its indexes) or one of its streams, for authorization:
     * null when the table does not exist or has no such policy. One store read.
     */
    public @Nullable Attached governing(String tableName, @Nullable String streamLabel) {
        Table t = catalog.get(tableName);
        if (t == null) {
            return null;
        }
        Stored s = Stored.decode(store.get(key(t.descriptor().id(), streamLabel)));
        String policy = s.policy();
        return policy == null ? null : new Attached(policy, s.revisionId());
    }

    private static String checkArnMember(@Nullable String resourceArn) {
        Constraints c = new Constraints();
        if (c.notNull("resourceArn", resourceArn)) {
            c.length("resourceArn", resourceArn, 1, RESOURCE_ARN_LENGTH_MAX);
        }
        c.throwIfAny();
        return Objects.requireNonNull(resourceArn, "checked above");
    }

    /** The table the ARN names, whose stream (if one is named) exists or existed. */
    private Table existing(ResourcePolicyArns.Resource r, String arn) {
        Table t = catalog.get(r.tableName());
        if (t == null || (r.streamLabel() != null && t.descriptor().stream().epoch(r.streamLabel()) == null)) {
            // UNVERIFIED wording: the form TagResource answers for a ResourceArn naming no table.
            throw DynamoException.resourceNotFound("Requested resource not found: ResourceArn: " + arn + " not found");
        }
        return t;
    }

    private static boolean matches(Stored current, @Nullable String expected) {
        if (expected == null) {
            return true;
        }
        if (NO_POLICY.equals(expected)) {
            return current.policy() == null;
        }
        return current.policy() != null && current.revisionId().equals(expected);
    }

    /** Revision ids are epoch milliseconds as text, as DynamoDB's look; each one above the last. */
    private String nextRevision(Stored current) {
        long now = clock.nowMillis();
        if (current.revisionId().isEmpty()) {
            return Long.toString(now);
        }
        long last;
        try {
            last = Long.parseLong(current.revisionId());
        } catch (NumberFormatException e) {
            last = 0;
        }
        return Long.toString(Math.max(now, last + 1));
    }

    private static DynamoException policyNotFound(String arn) {
        // UNVERIFIED wording; the class is the documented one, for a missing policy and for a revision
        // id that does not match alike.
        return new DynamoException(
                ErrorCode.POLICY_NOT_FOUND, "Resource-based policy not found for the provided ResourceArn: " + arn);
    }

    static byte[] key(int tableId, @Nullable String streamLabel) {
        byte[] label = streamLabel == null ? new byte[0] : streamLabel.getBytes(StandardCharsets.UTF_8);
        return new ByteSink(5 + label.length)
                .put(KeySpace.RESOURCE_POLICIES)
                .putIntBigEndian(tableId)
                .put(label)
                .toArray();
    }

    /**
     * A policy key's value: a format byte, the revision id and the document (absent after a delete,
     * when the revision is kept as a tombstone). Nothing stored reads as revision "" and no policy.
     */
    record Stored(String revisionId, @Nullable String policy) {
        private static final byte FORMAT = 1;

        static Stored decode(byte @Nullable [] bytes) {
            if (bytes == null) {
                return new Stored("", null);
            }
            if (bytes.length < 3 || bytes[0] != FORMAT) {
                throw new IllegalStateException("corrupt resource policy record");
            }
            int revisionLength = bytes[1] & 0xFF;
            if (2 + revisionLength + 1 > bytes.length) {
                throw new IllegalStateException("corrupt resource policy record");
            }
            String revision = new String(bytes, 2, revisionLength, StandardCharsets.UTF_8);
            int at = 2 + revisionLength;
            boolean present = bytes[at] == 1;
            String policy = present ? new String(bytes, at + 1, bytes.length - at - 1, StandardCharsets.UTF_8) : null;
            return new Stored(revision, policy);
        }

        byte[] encode() {
            byte[] revision = revisionId.getBytes(StandardCharsets.UTF_8);
            assert revision.length <= REVISION_ID_LENGTH_MAX;
            byte[] doc = policy == null ? new byte[0] : policy.getBytes(StandardCharsets.UTF_8);
            return new ByteSink(3 + revision.length + doc.length)
                    .put(FORMAT)
                    .put((byte) revision.length)
                    .put(revision)
                    .put(policy == null ? (byte) 0 : (byte) 1)
                    .put(doc)
                    .toArray();
        }
    }
}
