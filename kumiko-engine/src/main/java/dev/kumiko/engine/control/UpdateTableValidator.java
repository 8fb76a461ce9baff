package dev.kumiko.engine.control;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.BillingMode;

/** UpdateTable's checks: the request's shape, then what the change means for this table. */
final class UpdateTableValidator {
    private UpdateTableValidator() {}

    /**
     * What the request must hold before the table is looked up. The API model's member constraints
     * are the caller's (the server's decoder answers them with DynamoDB's texts); the engine only
     * refuses a request it cannot run.
     */
    static void checkRequest(UpdateTableRequest r) {
        RequiredMembers.check(r);
        checkSomethingToChange(r);
    }

    /**
     * A request that changes nothing is refused before the table is looked up (probes of AWS in
     * 2026 got this answer for a missing table too). The text is the one those probes captured;
     * the members Kumiko does not model are listed all the same, as DynamoDB lists them.
     */
    private static void checkSomethingToChange(UpdateTableRequest r) {
        boolean nothing = r.billingMode() == null
                && r.provisionedThroughput() == null
                && r.streamSpecification() == null
                && r.sseSpecification() == null
                && r.tableClass() == null
                && r.deletionProtectionEnabled() == null
                && !r.hasGlobalSecondaryIndexUpdates()
                && !r.hasReplicaUpdates();
        if (nothing) {
            throw DynamoException.validation("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                    + "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, "
                    + "ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, "
                    + "WarmThroughput or TableClass is required");
        }
    }

    static void check(UpdateTableRequest r, TableDescriptor d) {
        if (r.hasReplicaUpdates()) {
            throw DynamoException.validation("ReplicaUpdates are not supported by Kumiko");
        }
        checkBilling(r, d);
        checkStream(r, d);
        if (r.hasGlobalSecondaryIndexUpdates()) {
            GsiUpdates.check(r, d, willBeOnDemand(r, d));
        }
    }

    static boolean willBeOnDemand(UpdateTableRequest r, TableDescriptor d) {
        return r.billingMode() == null
                ? d.billingMode() == BillingMode.PAY_PER_REQUEST
                : r.billingMode() == BillingMode.PAY_PER_REQUEST;
    }

    private static void checkBilling(UpdateTableRequest r, TableDescriptor d) {
        boolean toOnDemand = willBeOnDemand(r, d);
        if (toOnDemand) {
            if (r.provisionedThroughput() != null) {
                throw DynamoException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits can be "
                        + "specified when BillingMode is PAY_PER_REQUEST");
            }
            return;
        }
        boolean switching = d.billingMode() == BillingMode.PAY_PER_REQUEST;
        if (switching && r.provisionedThroughput() == null) {
            throw DynamoException.validation("No provisioned throughput specified for the table");
        }
        if (r.provisionedThroughput() == null && !switching && onlyBillingMode(r)) {
            // Probes of AWS (2026): BillingMode PROVISIONED alone on a provisioned table.
            throw DynamoException.validation("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
        }
        if (r.provisionedThroughput() == null) {
            return;
        }
        CreateTableValidator.checkThroughputLimit(r.provisionedThroughput());
        Throughput now = d.throughput();
        long read = r.provisionedThroughput().readCapacityUnits();
        long write = r.provisionedThroughput().writeCapacityUnits();
        // BillingMode PROVISIONED on a table that already is provisioned changes nothing either.
        if (!switching && read == now.readCapacityUnits() && write == now.writeCapacityUnits()) {
            throw DynamoException.validation("The provisioned throughput for the table will not change. The requested "
                    + "value equals the current value. Current ReadCapacityUnits provisioned for the table: "
                    + now.readCapacityUnits() + ". Requested ReadCapacityUnits: " + read
                    + ". Current WriteCapacityUnits provisioned for the table: " + now.writeCapacityUnits()
                    + ". Requested WriteCapacityUnits: " + write + ". Refer to the Amazon DynamoDB Developer Guide "
                    + "for current limits and how to request higher limits.");
        }
    }

    private static boolean onlyBillingMode(UpdateTableRequest r) {
        return r.billingMode() != null
                && r.streamSpecification() == null
                && r.sseSpecification() == null
                && r.tableClass() == null
                && r.deletionProtectionEnabled() == null
                && !r.hasGlobalSecondaryIndexUpdates();
    }

    private static void checkStream(UpdateTableRequest r, TableDescriptor d) {
        CreateTableRequest.StreamInput s = r.streamSpecification();
        if (s == null) {
            return;
        }
        if (Boolean.TRUE.equals(s.streamEnabled())) {
            if (d.stream().enabled()) {
                throw DynamoException.validation("Table already has an enabled stream: TableName: " + d.tableName());
            }
            if (s.streamViewType() == null) {
                // UNVERIFIED wording.
                throw DynamoException.invalidParameter("StreamViewType must be specified when enabling a stream");
            }
        } else if (!d.stream().enabled()) {
            // UNVERIFIED wording.
            throw DynamoException.validation("Table does not have a stream enabled: TableName: " + d.tableName());
        }
    }
}
