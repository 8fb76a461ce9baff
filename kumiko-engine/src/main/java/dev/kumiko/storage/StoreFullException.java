package dev.kumiko.storage;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;

/**
 * A write refused whole, before any of it was applied, because the store holds as much data as it
 * may (the memory store's budget of the heap). Reads and deletes go on; writes succeed again once
 * deletes have made room.
 *
 * <p>DynamoDB has no "full": its storage grows without bound. The closest honest answer is its
 * modeled 500, InternalServerError: the request was fine and the server could not do it. A 400 would
 * blame the client (design.md: never for the server's own state), and DynamoDB's 400s that name a
 * limit (LimitExceededException, ItemCollectionSizeLimitExceededException) mean something else that
 * a client may act on wrongly. A 503 would promise that waiting helps, which it does not until
 * someone deletes. The SDKs retry a 500 a few times and then surface it with this message.
 */
public final class StoreFullException extends DynamoException {
    public StoreFullException(String message) {
        super(ErrorCode.INTERNAL_SERVER_ERROR, message);
    }
}
