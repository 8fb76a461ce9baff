package dev.kumiko.engine.backup;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.Projection;
import dev.kumiko.catalog.SseSettings;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.SseType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * A restored table's settings: the source's, with what the restore request overrides (billing
 * mode, provisioned throughput, the GSIs and LSIs as a whole, SSE). Every index gets a new id, since
 * index entries live under their index's id.
 */
final class RestoreOverrides {
    record Applied(
            BillingMode billingMode,
            Throughput throughput,
            List<IndexDescriptor> lsis,
            List<IndexDescriptor> gsis,
            SseSettings sse) {}

    private RestoreOverrides() {}

    static Applied apply(TableDescriptor source, BackupRequests.Overrides o, IntSupplier newId) {
        BillingMode billing = o.billingMode() != null ? o.billingMode() : source.billingMode();
        boolean onDemand = billing == BillingMode.PAY_PER_REQUEST;
        Throughput throughput = onDemand
                ? Throughput.ZERO
                : o.provisionedThroughput() != null ? throughput(o.provisionedThroughput()) : source.throughput();
        if (!onDemand && throughput.readCapacityUnits() <= 0) {
            // UNVERIFIED wording: a switch to PROVISIONED needs throughput, as in CreateTable.
            throw DynamoException.validation(
                    "One or more parameter values were invalid: ProvisionedThroughput must be specified when "
                            + "BillingMode is PROVISIONED");
        }
        List<IndexDescriptor> lsis = o.localSecondaryIndexes() == null
                ? renumber(source.localSecondaryIndexes(), newId, onDemand)
                : fromInput(source, o.localSecondaryIndexes(), false, false, newId);
        List<IndexDescriptor> gsis = o.globalSecondaryIndexes() == null
                ? renumber(source.globalSecondaryIndexes(), newId, onDemand)
                : fromInput(source, o.globalSecondaryIndexes(), true, !onDemand, newId);
        SseSettings sse = o.sse() == null
                ? source.sse()
                : !Boolean.TRUE.equals(o.sse().enabled())
                        ? SseSettings.DEFAULT
                        : new SseSettings(
                                true,
                                o.sse().sseType() == null
                                        ? SseType.KMS
                                        : o.sse().sseType(),
                                o.sse().kmsMasterKeyId());
        return new Applied(billing, throughput, lsis, gsis, sse);
    }

    private static List<IndexDescriptor> renumber(List<IndexDescriptor> in, IntSupplier newId, boolean onDemand) {
        List<IndexDescriptor> out = new ArrayList<>(in.size());
        for (IndexDescriptor x : in) {
            Throughput t = onDemand || !x.global() ? Throughput.ZERO : x.throughput();
            out.add(new IndexDescriptor(
                    newId.getAsInt(),
                    x.indexName(),
                    x.global(),
                    x.keySchema(),
                    x.projection(),
                    t,
                    IndexDescriptor.ACTIVE));
        }
        return List.copyOf(out);
    }

    private static List<IndexDescriptor> fromInput(
            TableDescriptor source, List<IndexInput> in, boolean global, boolean provisioned, IntSupplier newId) {
        List<IndexDescriptor> out = new ArrayList<>(in.size());
        for (IndexInput x : in) {
            checkShape(x);
            List<KeySchemaElement> keys = new ArrayList<>();
            x.keySchema().forEach(k -> keys.add(new KeySchemaElement(k.attributeName(), k.keyType())));
            for (KeySchemaElement k : keys) {
                if (source.attributeType(k.attributeName()) == null) {
                    // UNVERIFIED wording; a restore cannot define new attributes, so an index key must be defined.
                    throw DynamoException.validation("One or more parameter values were invalid: Some index key "
                            + "attributes are not defined in AttributeDefinitions. Keys: [" + k.attributeName()
                            + "], AttributeDefinitions: " + source.attributeDefinitions());
                }
            }
            Throughput t = provisioned && x.provisionedThroughput() != null
                    ? throughput(x.provisionedThroughput())
                    : Throughput.ZERO;
            List<String> nonKey = x.projection().nonKeyAttributes();
            out.add(new IndexDescriptor(
                    newId.getAsInt(),
                    x.indexName(),
                    global,
                    List.copyOf(keys),
                    new Projection(x.projection().projectionType(), nonKey == null ? null : List.copyOf(nonKey)),
                    t,
                    IndexDescriptor.ACTIVE));
        }
        return List.copyOf(out);
    }

    private static Throughput throughput(dev.kumiko.engine.control.CreateTableRequest.ThroughputInput t) {
        Long read = t.readCapacityUnits();
        Long write = t.writeCapacityUnits();
        if (read == null || write == null || read < 1 || write < 1) {
            // UNVERIFIED wording.
            throw DynamoException.validation("One or more parameter values were invalid: ReadCapacityUnits and "
                    + "WriteCapacityUnits must both be specified and at least 1");
        }
        return new Throughput(read, write);
    }

    /** The members an index override cannot do without (UNVERIFIED wording, CreateTable's style). */
    private static void checkShape(IndexInput x) {
        if (x == null
                || x.indexName() == null
                || x.keySchema() == null
                || x.keySchema().isEmpty()
                || x.projection() == null
                || x.projection().projectionType() == null
                || x.keySchema().stream()
                        .anyMatch(k -> k == null || k.attributeName() == null || k.keyType() == null)) {
            throw DynamoException.validation("One or more parameter values were invalid: an index override needs "
                    + "IndexName, KeySchema (HASH, then RANGE) and Projection");
        }
    }
}
