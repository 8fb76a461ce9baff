package dev.kumiko.error;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request throttled by throughput enforcement: ProvisionedThroughputExceededException or
 * ThrottlingException, carrying the ThrottlingReasons DynamoDB returns in the error body. A
 * reason names the table and, for an index, the index; the server turns these into the ARN of the
 * resource, since the region is the request's.
 */
public final class ThroughputExceeded extends DynamoException {
    /** One entry of ThrottlingReasons; {@code indexName} is null when the table itself throttled. */
    public record Reason(
            String reason, String tableName, @Nullable String indexName) {
        public Reason {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(tableName);
        }
    }

    private final List<Reason> reasons;

    public ThroughputExceeded(ErrorCode code, @Nullable String message, List<Reason> reasons) {
        super(code, message);
        assert code == ErrorCode.PROVISIONED_THROUGHPUT_EXCEEDED || code == ErrorCode.THROTTLING : code;
        assert !reasons.isEmpty();
        this.reasons = List.copyOf(reasons);
    }

    public List<Reason> reasons() {
        return reasons;
    }
}
