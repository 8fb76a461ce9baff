package dev.kumiko.catalog;

import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Everything the catalog keeps about one table. Immutable; updates produce a new descriptor. */
public record TableDescriptor(
        int id,
        String tableName,
        String tableId,
        long creationEpochMillis,
        List<KeySchemaElement> keySchema,
        List<AttributeDefinition> attributeDefinitions,
        BillingMode billingMode,
        Throughput throughput,
        long billingModeChangeEpochMillis,
        List<IndexDescriptor> localSecondaryIndexes,
        List<IndexDescriptor> globalSecondaryIndexes,
        StreamSettings stream,
        SseSettings sse,
        TableClass tableClass,
        boolean deletionProtectionEnabled,
        Map<String, String> tags,
        TimeToLiveSettings timeToLive,
        RecoverySettings recovery,
        ContributorInsightsSettings contributorInsights,
        KinesisDestinations kinesis) {

    public String hashKeyName() {
        return keySchema.get(0).attributeName();
    }

    /**
     * The partition key value of an item, a key or an index entry of this table. Every one of them
     * has it: stored ones were checked when written, a request's by KeyCheck before it gets here.
     */
    public AttributeValue hashKeyOf(Map<String, AttributeValue> item) {
        return Objects.requireNonNull(item.get(hashKeyName()), "no partition key");
    }

    /** The sort key attribute's name, or null for a hash-only table. */
    public @Nullable String rangeKeyName() {
        return keySchema.size() > 1 ? keySchema.get(1).attributeName() : null;
    }

    public @Nullable AttributeType attributeType(String name) {
        for (AttributeDefinition d : attributeDefinitions) {
            if (d.attributeName().equals(name)) {
                return d.attributeType();
            }
        }
        return null;
    }

    public boolean isKeyAttribute(String name) {
        return name.equals(hashKeyName()) || name.equals(rangeKeyName());
    }

    public TableDescriptor withTags(Map<String, String> newTags) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                newTags,
                timeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }

    /** The descriptor after GSIs were added or removed, with the key attributes they define. */
    public TableDescriptor withGlobalIndexes(List<AttributeDefinition> newDefinitions, List<IndexDescriptor> newGsis) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                newDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                newGsis,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }

    public TableDescriptor withTimeToLive(TimeToLiveSettings newTimeToLive) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                newTimeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }

    public TableDescriptor withStream(StreamSettings newStream) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                newStream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }

    public TableDescriptor withSettings(
            BillingMode newBillingMode,
            Throughput newThroughput,
            long billingChangeMillis,
            StreamSettings newStream,
            boolean newDeletionProtection,
            TableClass newTableClass,
            List<IndexDescriptor> newGsis,
            SseSettings newSse) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                newBillingMode,
                newThroughput,
                billingChangeMillis,
                localSecondaryIndexes,
                newGsis,
                newStream,
                newSse,
                newTableClass,
                newDeletionProtection,
                tags,
                timeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }

    /** The descriptor with another recovery setting (point-in-time recovery, restore summary). */
    public TableDescriptor withRecovery(RecoverySettings newRecovery) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                newRecovery,
                contributorInsights,
                kinesis);
    }

    /** The descriptor with other Contributor Insights settings. */
    public TableDescriptor withContributorInsights(ContributorInsightsSettings newInsights) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                recovery,
                newInsights,
                kinesis);
    }

    /** The descriptor with other Kinesis streaming destinations. */
    public TableDescriptor withKinesis(KinesisDestinations newKinesis) {
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput,
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                globalSecondaryIndexes,
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                recovery,
                contributorInsights,
                newKinesis);
    }

    /** A copy of this table under a new name and ids (a restore's target): no stream, TTL, tags, Contributor Insights or Kinesis destinations. */
    public TableDescriptor restoredAs(
            int newId,
            String newName,
            String newTableId,
            long createdMillis,
            BillingMode newBillingMode,
            Throughput newThroughput,
            List<IndexDescriptor> newLsis,
            List<IndexDescriptor> newGsis,
            SseSettings newSse,
            RecoverySettings newRecovery) {
        return new TableDescriptor(
                newId,
                newName,
                newTableId,
                createdMillis,
                keySchema,
                attributeDefinitions,
                newBillingMode,
                newThroughput,
                newBillingMode == BillingMode.PAY_PER_REQUEST ? createdMillis : 0,
                newLsis,
                newGsis,
                StreamSettings.NONE,
                newSse,
                tableClass,
                false,
                Map.of(),
                TimeToLiveSettings.DISABLED,
                newRecovery,
                ContributorInsightsSettings.NONE,
                KinesisDestinations.NONE);
    }

    /** This descriptor as DescribeTable reports it at nowMillis (throughput decrease counts of today). */
    public TableDescriptor throughputAsOf(long nowMillis) {
        List<IndexDescriptor> gsis = new java.util.ArrayList<>(globalSecondaryIndexes.size());
        globalSecondaryIndexes.forEach(
                x -> gsis.add(x.withThroughput(x.throughput().asOf(nowMillis))));
        return new TableDescriptor(
                id,
                tableName,
                tableId,
                creationEpochMillis,
                keySchema,
                attributeDefinitions,
                billingMode,
                throughput.asOf(nowMillis),
                billingModeChangeEpochMillis,
                localSecondaryIndexes,
                List.copyOf(gsis),
                stream,
                sse,
                tableClass,
                deletionProtectionEnabled,
                tags,
                timeToLive,
                recovery,
                contributorInsights,
                kinesis);
    }
}
