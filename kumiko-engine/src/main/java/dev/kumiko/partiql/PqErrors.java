package dev.kumiko.partiql;

import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;

/**
 * DynamoDB's PartiQL error messages. Those marked "observed" are quoted from real responses (a
 * public conformance suite pinned against AWS); the rest are reasoned from DynamoDB's wording and
 * UNVERIFIED.
 */
final class PqErrors {
    /** Observed. */
    static final String NOT_WELL_FORMED = "Statement wasn't well formed, can't be processed: ";
    /** Observed. */
    static final String LEFTOVER = "Unexpected token after expression";
    /** Observed. */
    static final String ALIASING = "Aliasing is not supported";
    /** Recalled from DynamoDB responses; UNVERIFIED here. */
    static final String PARAMETER_COUNT = "Number of parameters in request and statement don't match.";
    /** Recalled from DynamoDB responses; UNVERIFIED here. */
    static final String KEY_EQUALITY = "Where clause does not contain a mandatory equality on all key attributes";
    /** Recalled from DynamoDB responses; UNVERIFIED here. */
    static final String DUPLICATE_ITEM = "Duplicate primary key exists in table";
    /** Observed. */
    static final String EMPTY_SET = "Empty bags are not supported";
    /** Observed (DynamoDB's item nesting message). */
    static final String NESTING = "Nesting Levels have exceeded supported limits: "
            + "Attributes in the item have nested levels beyond supported limit";

    private PqErrors() {}

    static DynamoException notWellFormed(String detail) {
        return DynamoException.validation(NOT_WELL_FORMED + detail);
    }

    static DynamoException validation(String message) {
        return DynamoException.validation(message);
    }

    /** "Unexpected ..." with the token's position, the shape DynamoDB's parser errors take (UNVERIFIED). */
    static DynamoException unexpected(PqToken t) {
        if (t.kind() == PqToken.Kind.EOF) {
            return notWellFormed("Unexpected end of statement");
        }
        return notWellFormed("Unexpected token: " + t.text() + " at " + t.position());
    }

    static DynamoException duplicateItem() {
        return new DynamoException(ErrorCode.DUPLICATE_ITEM, DUPLICATE_ITEM);
    }
}
