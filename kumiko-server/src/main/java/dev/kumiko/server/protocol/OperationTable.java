package dev.kumiko.server.protocol;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Every operation Kumiko serves, one {@link Operation} each, by API and name. The registrations
 * are grouped by concern, one file each: {@link DataPlaneOperations} (items, reads, batches,
 * transactions), {@link PartiqlOperations} (PartiQL statements), {@link ControlPlaneOperations} (tables, tags, TTL, limits, endpoints),
 * {@link StreamsOperations} (DynamoDB Streams) and {@link AdminOperations} (Kumiko's own endpoints).
 *
 * <h2>Adding an operation</h2>
 * <ol>
 * <li>Give the engine a typed request record and a method that runs it (its own package).</li>
 * <li>Write a decoder (body to request record, with {@link Fields} and {@link AttributeValues}) and
 * an encoder (answer to response members) in the protocol package.</li>
 * <li>Write its authorization rule: a method in {@code policy.ItemChecks} or
 * {@code policy.ResourceChecks} that reads the typed request (never the raw body). There is no
 * default: {@link Operation} refuses to be built without one.</li>
 * <li>Add one line to the registration file of its concern:
 * <pre>
 * b.add(dynamodb("PutItem", ItemRequestReader::putItem, (e, r, c) -&gt; e.items().putItem(r),
 *         (g, t, c) -&gt; itemResult(g, "Attributes", t), ItemChecks::putItem));
 * </pre></li>
 * <li>Test it end to end with the AWS SDK against a {@code TestServer}.</li>
 * </ol>
 * An operation of DynamoDB's API that is not registered answers UnknownOperationException saying
 * Kumiko does not implement it yet.
 */
public final class OperationTable {
    private static final OperationTable STANDARD = build();

    private final Map<Operation.Api, Map<String, Operation<?, ?>>> byApi;

    private OperationTable(Map<Operation.Api, Map<String, Operation<?, ?>>> byApi) {
        this.byApi = byApi;
    }

    /** The operations this server answers. */
    public static OperationTable standard() {
        return STANDARD;
    }

    private static OperationTable build() {
        Builder b = new Builder();
        DataPlaneOperations.register(b);
        PartiqlOperations.register(b);
        ControlPlaneOperations.register(b);
        BackupOperations.register(b);
        StreamsOperations.register(b);
        ExchangeOperations.register(b);
        AdminOperations.register(b);
        return b.build();
    }

    /** The operation of that API and name; null when none is registered. */
    public Operation<?, ?> find(Operation.Api api, String name) {
        return byApi.get(api).get(name);
    }

    /** The names registered for one API, in registration order. */
    public Set<String> names(Operation.Api api) {
        return byApi.get(api).keySet();
    }

    /** Collects registrations; a name registered twice in one API is a programming error. */
    static final class Builder {
        private final Map<Operation.Api, Map<String, Operation<?, ?>>> byApi = new EnumMap<>(Operation.Api.class);

        Builder() {
            for (Operation.Api api : Operation.Api.values()) {
                byApi.put(api, new LinkedHashMap<>());
            }
        }

        void add(Operation<?, ?> op) {
            if (byApi.get(op.api()).putIfAbsent(op.name(), op) != null) {
                throw new IllegalStateException("operation registered twice: " + op.api() + " " + op.name());
            }
        }

        OperationTable build() {
            Map<Operation.Api, Map<String, Operation<?, ?>>> frozen = new EnumMap<>(Operation.Api.class);
            byApi.forEach((api, ops) -> frozen.put(api, Collections.unmodifiableMap(new LinkedHashMap<>(ops))));
            return new OperationTable(frozen);
        }
    }
}
