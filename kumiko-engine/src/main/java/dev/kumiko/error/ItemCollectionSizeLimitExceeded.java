package dev.kumiko.error;

/**
 * A write that would grow an LSI table's item collection past the limit. Carries the position of
 * the offending change in a multi-item commit, so a transaction can name the action that caused
 * it in its cancellation reasons.
 */
public final class ItemCollectionSizeLimitExceeded extends DynamoException {
    // UNVERIFIED wording: the exception type is documented, its message is not.
    public static final String MESSAGE = "Item collection size limit exceeded";
    private final int changeIndex;

    public ItemCollectionSizeLimitExceeded(int changeIndex) {
        super(ErrorCode.ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, MESSAGE);
        this.changeIndex = changeIndex;
    }

    /** The index, in the list given to the commit, of the change that grew the collection. */
    public int changeIndex() {
        return changeIndex;
    }
}
