package dev.kumiko.server.protocol;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Every operation Kumiko serves, one {@link Operation} each, by API and name. The registrations
 * are grouped by concern, one file each: {@link DataPlaneOperations} (items, reads, batches,
 * transactions), {@link PartiqlOperations} (PartiQL statements), {@link ControlPlaneOperations}
 * (tables, tags, TTL, limits, endpoints), {@link BackupOperations} (backups and point-in-time
 * recovery), {@link ContributorInsightsRegistration} (Contributor Insights), {@link StreamsOperations}
 * (DynamoDB Streams), {@link ExchangeOperations} (exports and imports), {@link
 * VectorOperationsRegistration} (SearchVectors), {@link ReplicationOperations} (between the regions
 * of a global table), {@link LegacyGlobalTableOperations} and {@link GlobalTableSettingsOperations}
 * (global tables of version 2017.11.29), {@link ReplicaAutoScalingOperations}, {@link
 * ResourcePolicyOperations}, {@link KinesisDestinationRegistration} (Kinesis streaming destinations)
 * and {@link AdminOperations}
 * (Kumiko's own endpoints).
 *
 * <h2>Adding an operation</h2>
 * <ol>
 * <li>Give the engine a typed request record and a method that runs it (its own package).</li>
 * <li>Write a decoder (body to request record, with {@link Fields} and {@link AttributeValues}) and
 * an encoder (answer to response members) in the protocol package.</li>
 * <li>Write its authorization rule: a method in {@code policy.ItemChecks} or
 * {@code policy.ResourceChecks} that reads the typed request (never the raw body). There is no
 * default: {@link Operation} refuses to be built without one.</li>
 * <li>In the registration file of its concern, add its name to {@code NAMES} and one arm to
 * {@code operation}:
 * <pre>
 * case "PutItem" -&gt; dynamodb(name, ItemRequestReader::putItem, (e, r, c) -&gt; e.items().putItem(r),
 *         (g, t, c) -&gt; itemResult(g, "Attributes", t), ItemChecks::putItem);
 * </pre></li>
 * <li>Test it end to end with the AWS SDK against a {@code TestServer}.</li>
 * </ol>
 * An operation of DynamoDB's API that is not registered answers UnknownOperationException saying
 * Kumiko does not implement it yet.
 *
 * <p>The table knows every name from the start, but builds an operation only at its first lookup.
 * Each registration holds four lambdas, and linking one costs about half a millisecond in a fresh
 * JVM: built all at once, the table's 47 operations took about 130 ms, most of an embedded
 * server's start in a test JVM, which then used a handful of them.
 */
public final class OperationTable {
    private static final OperationTable STANDARD = new OperationTable(List.of(
            new Concern(Operation.Api.DYNAMODB, DataPlaneOperations.NAMES, DataPlaneOperations::operation),
            new Concern(Operation.Api.DYNAMODB, PartiqlOperations.NAMES, PartiqlOperations::operation),
            new Concern(Operation.Api.DYNAMODB, ControlPlaneOperations.NAMES, ControlPlaneOperations::operation),
            new Concern(Operation.Api.DYNAMODB, BackupOperations.NAMES, BackupOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB,
                    ContributorInsightsRegistration.NAMES,
                    ContributorInsightsRegistration::operation),
            new Concern(Operation.Api.STREAMS, StreamsOperations.NAMES, StreamsOperations::operation),
            new Concern(Operation.Api.DYNAMODB, ExchangeOperations.NAMES, ExchangeOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB,
                    VectorOperationsRegistration.NAMES,
                    VectorOperationsRegistration::operation),
            new Concern(Operation.Api.DYNAMODB, ReplicationOperations.NAMES, ReplicationOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB, LegacyGlobalTableOperations.NAMES, LegacyGlobalTableOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB,
                    GlobalTableSettingsOperations.NAMES,
                    GlobalTableSettingsOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB,
                    ReplicaAutoScalingOperations.NAMES,
                    ReplicaAutoScalingOperations::operation),
            new Concern(Operation.Api.DYNAMODB, ResourcePolicyOperations.NAMES, ResourcePolicyOperations::operation),
            new Concern(
                    Operation.Api.DYNAMODB,
                    KinesisDestinationRegistration.NAMES,
                    KinesisDestinationRegistration::operation),
            new Concern(Operation.Api.ADMIN, AdminOperations.NAMES, AdminOperations::operation)));

    /** Each API's slots by name. */
    private final Map<String, Slot> dynamodb;

    private final Map<String, Slot> streams;
    private final Map<String, Slot> admin;

    /** A name listed twice in one API is a programming error. */
    OperationTable(List<Concern> concerns) {
        Map<String, Slot> dynamodbSlots = new LinkedHashMap<>();
        Map<String, Slot> streamsSlots = new LinkedHashMap<>();
        Map<String, Slot> adminSlots = new LinkedHashMap<>();
        for (Concern c : concerns) {
            Map<String, Slot> slots = switch (c.api()) {
                case DYNAMODB -> dynamodbSlots;
                case STREAMS -> streamsSlots;
                case ADMIN -> adminSlots;
            };
            for (String name : c.names()) {
                if (slots.putIfAbsent(name, new Slot(c, name)) != null) {
                    throw new IllegalStateException("operation registered twice: " + c.api() + " " + name);
                }
            }
        }
        this.dynamodb = Collections.unmodifiableMap(dynamodbSlots);
        this.streams = Collections.unmodifiableMap(streamsSlots);
        this.admin = Collections.unmodifiableMap(adminSlots);
    }

    /** The operations this server answers. */
    public static OperationTable standard() {
        return STANDARD;
    }

    /** The operation of that API and name, built at its first lookup; null when none is registered. */
    public @Nullable Operation<?, ?> find(Operation.Api api, String name) {
        Slot slot = slots(api).get(name);
        return slot == null ? null : slot.operation();
    }

    /** The names registered for one API, in registration order. */
    public Set<String> names(Operation.Api api) {
        return slots(api).keySet();
    }

    private Map<String, Slot> slots(Operation.Api api) {
        return switch (api) {
            case DYNAMODB -> dynamodb;
            case STREAMS -> streams;
            case ADMIN -> admin;
        };
    }

    /** One registration file: the API of its operations, their names, and how it builds one of them. */
    record Concern(Operation.Api api, List<String> names, Function<String, Operation<?, ?>> registration) {}

    /** One name's operation, built once, by the first lookup that needs it. */
    private static final class Slot {
        private final Concern concern;
        private final String name;
        private volatile @Nullable Operation<?, ?> built;

        Slot(Concern concern, String name) {
            this.concern = concern;
            this.name = name;
        }

        Operation<?, ?> operation() {
            Operation<?, ?> op = built;
            return op != null ? op : build();
        }

        private synchronized Operation<?, ?> build() {
            Operation<?, ?> op = built;
            if (op == null) {
                op = concern.registration().apply(name);
                if (op.api() != concern.api() || !op.name().equals(name)) {
                    throw new IllegalStateException("the registration of " + concern.api() + " " + name + " built "
                            + op.api() + " " + op.name());
                }
                built = op;
            }
            return op;
        }
    }
}
