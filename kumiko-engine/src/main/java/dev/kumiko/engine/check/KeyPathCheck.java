package dev.kumiko.engine.check;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.RequestExpressions;
import java.util.List;

/**
 * Key attributes are scalars, so a document path into one (pk.a, pk[0]) in a projection, filter,
 * condition or update is refused once the table is known. The text is the one DynamoDB was
 * observed to send (quoted in third-party tests run against it): "Key: x" for the table's key,
 * "IndexKey: x" for a secondary index's.
 */
public final class KeyPathCheck {
    private static final String MESSAGE =
            "Key attributes must be scalars; list random access '[]' and map lookup " + "'.' are not allowed: ";

    private KeyPathCheck() {}

    public static void check(TableDescriptor d, RequestExpressions e) {
        if (e == null) {
            return;
        }
        for (String name : e.nestedPathTopLevelNames()) {
            if (d.isKeyAttribute(name)) {
                throw DynamoException.validation(MESSAGE + "Key: " + name);
            }
            if (isIndexKey(d.localSecondaryIndexes(), name) || isIndexKey(d.globalSecondaryIndexes(), name)) {
                throw DynamoException.validation(MESSAGE + "IndexKey: " + name);
            }
        }
    }

    private static boolean isIndexKey(List<IndexDescriptor> indexes, String name) {
        for (IndexDescriptor x : indexes) {
            if (x.isKeyAttribute(name)) {
                return true;
            }
        }
        return false;
    }
}
