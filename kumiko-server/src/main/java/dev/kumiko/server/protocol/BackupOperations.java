package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.backup.BackupRequests;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.MemberConstraintException;
import dev.kumiko.model.BillingMode;
import dev.kumiko.server.json.JsonNull;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.policy.AuthorizationCheck;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Registrations of on-demand backups (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
 * RestoreTableFromBackup) and point-in-time recovery (UpdateContinuousBackups,
 * DescribeContinuousBackups, RestoreTableToPointInTime). A backup's resource is its ARN
 * ({@code arn:aws:dynamodb:REGION:ACCOUNT:table/T/backup/ID}); a restore also needs the permission
 * on the table it creates.
 */
final class BackupOperations {
    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of(
            "CreateBackup",
            "DescribeBackup",
            "DeleteBackup",
            "ListBackups",
            "RestoreTableFromBackup",
            "UpdateContinuousBackups",
            "DescribeContinuousBackups",
            "RestoreTableToPointInTime");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "CreateBackup" ->
                dynamodb(
                        name,
                        body -> new BackupRequests.CreateBackup(
                                Fields.string(body, "TableName"), Fields.string(body, "BackupName")),
                        (e, r, c) -> e.backups().backups().createBackup(c.engine(), r),
                        (g, t, c) -> backupDetails(g, "BackupDetails", t),
                        (r, f) -> ResourceChecks.table("CreateBackup", r.tableName(), f));
            case "DescribeBackup" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("BackupArn"),
                        (e, r, c) -> e.backups().backups().describeBackup(r),
                        (g, t, c) -> backupDescription(g, t),
                        (r, f) -> ResourceChecks.arn("DescribeBackup", r, f));
            case "DeleteBackup" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("BackupArn"),
                        (e, r, c) -> e.backups().backups().deleteBackup(r),
                        (g, t, c) -> backupDescription(g, t),
                        (r, f) -> ResourceChecks.arn("DeleteBackup", r, f));
            case "ListBackups" ->
                dynamodb(
                        name,
                        BackupOperations::listBackups,
                        (e, r, c) -> e.backups().backups().listBackups(r),
                        (g, t, c) -> backupPage(g, t),
                        (r, f) -> ResourceChecks.account("ListBackups"));
            case "RestoreTableFromBackup" ->
                dynamodb(
                        name,
                        BackupOperations::restoreFromBackup,
                        (e, r, c) -> e.backups().backups().restoreTableFromBackup(c.engine(), r),
                        (g, t, c) -> table(g, t),
                        (r, f) -> both(
                                ResourceChecks.arn("RestoreTableFromBackup", r.backupArn(), f),
                                ResourceChecks.table("RestoreTableFromBackup", r.targetTableName(), f)));
            case "UpdateContinuousBackups" ->
                dynamodb(
                        name,
                        BackupOperations::updateContinuous,
                        (e, r, c) -> e.backups().continuous().update(r),
                        (g, t, c) -> continuous(g, t),
                        (r, f) -> ResourceChecks.table("UpdateContinuousBackups", r.tableName(), f));
            case "DescribeContinuousBackups" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("TableName"),
                        (e, r, c) -> e.backups().continuous().describe(r),
                        (g, t, c) -> continuous(g, t),
                        (r, f) -> ResourceChecks.table("DescribeContinuousBackups", r, f));
            case "RestoreTableToPointInTime" ->
                dynamodb(
                        name,
                        BackupOperations::restoreToPointInTime,
                        (e, r, c) -> e.backups().continuous().restoreToPointInTime(c.engine(), r),
                        (g, t, c) -> table(g, t),
                        (r, f) -> both(
                                ResourceChecks.table(
                                        "RestoreTableToPointInTime",
                                        r.sourceTableName() != null ? r.sourceTableName() : r.sourceTableArn(),
                                        f),
                                ResourceChecks.table("RestoreTableToPointInTime", r.targetTableName(), f)));
            default -> throw new IllegalArgumentException("not a backup or point-in-time recovery operation: " + name);
        };
    }

    private BackupOperations() {}

    private static List<AuthorizationCheck> both(List<AuthorizationCheck> a, List<AuthorizationCheck> b) {
        List<AuthorizationCheck> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static BackupRequests.ListBackups listBackups(Map<String, Object> body) {
        return new BackupRequests.ListBackups(
                Fields.string(body, "TableName"),
                Fields.longValue(body, "Limit"),
                epochMillis(body, "TimeRangeLowerBound"),
                epochMillis(body, "TimeRangeUpperBound"),
                Fields.string(body, "ExclusiveStartBackupArn"),
                Fields.string(body, "BackupType"));
    }

    private static BackupRequests.RestoreFromBackup restoreFromBackup(Map<String, Object> body) {
        BackupRequests.RestoreFromBackup r = new BackupRequests.RestoreFromBackup(
                Fields.string(body, "TargetTableName"), Fields.string(body, "BackupArn"), overrides(body));
        MemberViolations.check(r, () -> TableMembers.restoreOverrides(body));
        return r;
    }

    private static BackupRequests.RestoreToPointInTime restoreToPointInTime(Map<String, Object> body) {
        BackupRequests.RestoreToPointInTime r = new BackupRequests.RestoreToPointInTime(
                Fields.string(body, "SourceTableArn"), Fields.string(body, "SourceTableName"),
                Fields.string(body, "TargetTableName"), Fields.bool(body, "UseLatestRestorableTime"),
                epochMillis(body, "RestoreDateTime"), overrides(body));
        MemberViolations.check(r, () -> TableMembers.restoreOverrides(body));
        return r;
    }

    private static BackupRequests.Overrides overrides(Map<String, Object> body) {
        return new BackupRequests.Overrides(
                WireEnums.lenient(BillingMode.class, Fields.string(body, "BillingModeOverride")),
                ControlPlaneRequests.throughput(Fields.object(body, "ProvisionedThroughputOverride")),
                body.containsKey("GlobalSecondaryIndexOverride")
                        ? Fields.objects(body, "GlobalSecondaryIndexOverride", ControlPlaneRequests::index)
                        : null,
                body.containsKey("LocalSecondaryIndexOverride")
                        ? Fields.objects(body, "LocalSecondaryIndexOverride", ControlPlaneRequests::index)
                        : null,
                ControlPlaneRequests.sse(Fields.object(body, "SSESpecificationOverride")));
    }

    private static BackupRequests.UpdateContinuousBackups updateContinuous(Map<String, Object> body) {
        Map<String, Object> spec = Fields.object(body, "PointInTimeRecoverySpecification");
        if (spec == null) {
            throw new MemberConstraintException("1 validation error detected: Value null at "
                    + "'pointInTimeRecoverySpecification' failed to satisfy constraint: Member must not be null");
        }
        return new BackupRequests.UpdateContinuousBackups(
                Fields.string(body, "TableName"),
                Fields.bool(spec, "PointInTimeRecoveryEnabled"),
                Fields.longValue(spec, "RecoveryPeriodInDays"));
    }

    /** A timestamp member (epoch seconds with a fraction) in milliseconds. */
    private static @Nullable Long epochMillis(Map<String, Object> body, String name) {
        Object v = body.get(name);
        if (v == null || v == JsonNull.INSTANCE) {
            return null;
        }
        if (!(v instanceof JsonNumber n)) {
            throw Fields.wrongType(v, "Timestamp");
        }
        try {
            return new BigDecimal(n.text())
                    .movePointRight(3)
                    .setScale(0, java.math.RoundingMode.FLOOR)
                    .longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            throw DynamoException.serialization("NUMBER_VALUE cannot be converted to Timestamp");
        }
    }

    private static void table(JsonGenerator g, TableDescription t) throws IOException {
        g.writeFieldName("TableDescription");
        TableDescriptionWriter.write(g, t);
    }

    private static void backupDetails(JsonGenerator g, String field, BackupRequests.BackupDescription b)
            throws IOException {
        g.writeObjectFieldStart(field);
        g.writeStringField("BackupArn", b.backupArn());
        g.writeStringField("BackupName", b.backupName());
        g.writeNumberField("BackupSizeBytes", b.sizeBytes());
        g.writeStringField("BackupStatus", b.status());
        g.writeStringField("BackupType", b.type());
        JsonOut.epochSeconds(g, "BackupCreationDateTime", b.creationMillis());
        g.writeEndObject();
    }

    private static void backupDescription(JsonGenerator g, BackupRequests.BackupDescription b) throws IOException {
        g.writeObjectFieldStart("BackupDescription");
        backupDetails(g, "BackupDetails", b);
        BackupWriter.sourceTable(g, b);
        BackupWriter.features(g, b);
        g.writeEndObject();
    }

    private static void backupPage(JsonGenerator g, BackupRequests.BackupPage p) throws IOException {
        g.writeArrayFieldStart("BackupSummaries");
        for (BackupRequests.BackupDescription b : p.backups()) {
            BackupWriter.summary(g, b);
        }
        g.writeEndArray();
        if (p.lastEvaluatedBackupArn() != null) {
            g.writeStringField("LastEvaluatedBackupArn", p.lastEvaluatedBackupArn());
        }
    }

    private static void continuous(JsonGenerator g, BackupRequests.ContinuousBackups d) throws IOException {
        g.writeObjectFieldStart("ContinuousBackupsDescription");
        g.writeStringField("ContinuousBackupsStatus", "ENABLED");
        g.writeObjectFieldStart("PointInTimeRecoveryDescription");
        g.writeStringField("PointInTimeRecoveryStatus", d.pointInTimeRecoveryEnabled() ? "ENABLED" : "DISABLED");
        if (d.pointInTimeRecoveryEnabled()) {
            g.writeNumberField("RecoveryPeriodInDays", d.recoveryPeriodInDays());
            JsonOut.epochSeconds(g, "EarliestRestorableDateTime", d.earliestRestorableMillis());
            JsonOut.epochSeconds(g, "LatestRestorableDateTime", d.latestRestorableMillis());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
