package dev.kumiko.engine.failure;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.List;

/**
 * TransactionCanceledException: the whole transaction was refused, with one reason per action in
 * request order. The message lists the reason codes the way DynamoDB words it, e.g. "Transaction
 * cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]"
 * (AWS documentation's CloudTrail example; docs/notes/error-messages.md).
 */
public final class TransactionCanceled extends DynamoException {
    private static final String PREFIX =
            "Transaction cancelled, please refer cancellation reasons for specific reasons ";
    private final List<CancellationReason> reasons;

    public TransactionCanceled(List<CancellationReason> reasons) {
        super(ErrorCode.TRANSACTION_CANCELED, message(reasons));
        assert reasons.stream().anyMatch(r -> !r.isNone()) : "a cancellation needs a reason";
        this.reasons = List.copyOf(reasons);
    }

    private static String message(List<CancellationReason> reasons) {
        return PREFIX + reasons.stream().map(CancellationReason::code).toList();
    }

    public List<CancellationReason> reasons() {
        return reasons;
    }
}
